import fs from 'node:fs';
import path from 'node:path';
import type { ServiceDeskContact } from '@mfa-portal/shared';
import type { NotificationKind, NotificationParams } from './notification-kinds.js';

/**
 * The words of the e-mails, from the translation file `locales/<lng>/notifications.json` (English is the
 * source). A message is plain: greeting, what happened, when, by whom, the ticket, a link to the
 * portal, and what to do if it was not them; a text part and an HTML part with the same words.
 */

type Strings = { [key: string]: string | Strings };

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}

export interface MessageRenderer {
  render(kind: NotificationKind, params: NotificationParams, recipient: { displayName: string | null; upn: string }): RenderedMessage;
}

export function loadNotificationStrings(localesDir: string, lng = 'en'): Strings {
  const file = path.join(localesDir, lng, 'notifications.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Strings;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** "2026-11-25 10:46" from an ISO time (UTC, as the message says). */
const when = (iso: string | undefined) => (iso ? iso.replace('T', ' ').slice(0, 16) : '');

/** "31 March 2026, 17:00" from an ISO time (UTC, as the message says): a deadline reads as a date. */
const deadlineText = (iso: string | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  const date = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(d);
  return `${date}, ${iso.slice(11, 16)}`;
};

/** `serviceDesk`: how staff reach the service desk (SERVICE_DESK_CONTACT), named where a message sends them there. */
export function messageRenderer(
  strings: Strings,
  portalUrl: string,
  opts: { serviceDesk?: ServiceDeskContact | null } = {},
): MessageRenderer {
  const t = (key: string, values: Record<string, string | number> = {}): string => {
    let node: string | Strings | undefined = strings;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    const template = typeof node === 'string' ? node : key;
    return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(values[name] ?? ''));
  };
  const activityUrl = `${portalUrl}activity`;

  const addDeviceUrl = `${portalUrl}devices/add`;

  function assemble(
    subject: string,
    paragraphs: string[],
    link = { text: t('link', { url: activityUrl }), url: activityUrl, label: t('link_label') },
    footer = t('footer'),
  ): RenderedMessage {
    const text = [...paragraphs, link.text, footer].join('\n\n') + '\n';
    const html = [
      '<!doctype html><html><body style="font-family: Arial, sans-serif; font-size: 15px; line-height: 1.5; color: #1f1f1f">',
      ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
      `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
      `<p style="color: #595959; font-size: 13px">${escapeHtml(footer)}</p>`,
      '</body></html>',
    ].join('\n');
    return { subject, text, html };
  }

  /**
   * A campaign's e-mail: what to add and by when, the link to "Add a device", and whom to ask. A
   * security requirement offers no unsubscribe; the messages stop once the person has added a device.
   */
  function campaign(kind: 'campaign_invitation' | 'campaign_reminder', p: NotificationParams, name: string): RenderedMessage {
    const deadline = deadlineText(p.deadline);
    const desk = opts.serviceDesk;
    return assemble(
      t(`campaign.${kind === 'campaign_reminder' ? 'reminder_subject' : 'subject'}`, { deadline }),
      [
        t('greeting', { name }),
        t(p.requirement === 'policy' ? 'campaign.body_policy' : 'campaign.body_device', { deadline }),
        ...(kind === 'campaign_reminder' ? [t('campaign.reminder')] : []),
        t('campaign.how'),
        desk
          ? t('campaign.contact', { contact: desk.link ? `${desk.text} (${desk.link.replace(/^(tel|mailto):/, '')})` : desk.text })
          : t('campaign.contact_unset'),
      ],
      { text: t('campaign.link', { url: addDeviceUrl }), url: addDeviceUrl, label: t('campaign.link_label') },
      t('campaign.footer'),
    );
  }

  return {
    render(kind, p, recipient) {
      if (kind === 'campaign_invitation' || kind === 'campaign_reminder') return campaign(kind, p, recipient.displayName || recipient.upn);
      if (kind === 'security_report') {
        const yesNo = (b: boolean | undefined) => t(b ? 'report.yes' : 'report.no');
        return assemble(t('report.subject', { upn: recipient.upn }), [
          t('report.greeting'),
          t('report.body', { upn: recipient.upn }),
          t('report.event', {
            action: p.reportedAction ?? t('report.unknown'),
            at: when(p.reportedAt),
            address: p.reportedAddress ?? t('report.unknown'),
          }),
          t('report.actions', { signOut: yesNo(p.signOutEverywhere), revoke: yesNo(p.revokeBypassCodes), lock: yesNo(p.lockAccount) }),
          t('report.reported_at', { at: when(p.at), address: p.clientAddress ?? t('report.unknown') }),
          t('report.next'),
        ]);
      }
      const device = p.name ? `“${p.name}”` : p.serial ? p.serial : t('a_device');
      const paragraphs = [
        t('greeting', { name: recipient.displayName || recipient.upn }),
        t(`kind.${kind}.body`, { device, action: p.action ?? '' }),
        t('when', { at: when(p.at) }),
        !p.actorUpn ? t('by_system') : p.byOther ? t('by_other', { actor: p.actorUpn }) : t('by_you'),
        ...(p.byOther && p.ticket ? [t('ticket', { ticket: p.ticket })] : []),
        ...(p.byOther && p.reason ? [t('reason', { reason: p.reason })] : []),
        t('not_you'),
      ];
      return assemble(t(`kind.${kind}.subject`), paragraphs);
    },
  };
}
