import type { TFunction } from 'i18next';
import type { ActivityEvent } from '@mfa-portal/shared';

/** A detail of an audit event as text, when it is a plain value. */
function detail(event: ActivityEvent, name: string): string | undefined {
  const value = event.details?.[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** Translation key of an action: `action.device.delete`, with the verification's purpose for `mfa.verify`. */
function actionKey(event: ActivityEvent): string {
  const purpose = detail(event, 'purpose');
  const base = event.action === 'mfa.verify' && purpose ? `action.mfa.verify_${purpose}` : `action.${event.action}`;
  return `${base}.${event.outcome}`;
}

export interface DescribedEvent {
  /** What happened, in plain words ("Added the authenticator app “Work phone”"). */
  what: string;
  /** Who did it ("You", "helpdesk@example.com (service desk)", "The system"). */
  who: string;
  /** Whether it was done by someone else than the user (e.g. the service desk). */
  bySomeoneElse: boolean;
  /** Why it failed, translated from the error code. */
  reason: string | null;
}

/**
 * Turns an audit event into sentences for the activity timeline (`exists` tells which keys are
 * translated). An actor holding one of the configured restricted roles (`restrictedRoles`, from
 * /settings/APIInfo) is named as the service desk.
 */
export function describeEvent(
  event: ActivityEvent,
  t: TFunction,
  exists: (key: string, options?: { count?: number }) => boolean,
  myUpn: string | undefined,
  restrictedRoles: readonly string[],
): DescribedEvent {
  const values = {
    name: detail(event, 'deviceName') ?? t('activity:a_device'),
    serial: detail(event, 'serial') ?? '',
    count: Number(detail(event, 'count') ?? detail(event, 'bypassCount') ?? 1),
    action: event.action,
  };
  const key = `activity:${actionKey(event)}`;
  // An action this version does not know yet (e.g. a new admin action) is still listed, by its code.
  const what = exists(key, { count: values.count }) ? t(key, values) : t(`activity:action.unknown.${event.outcome}`, values);
  const mine = !!event.actorUpn && !!myUpn && event.actorUpn.toLowerCase() === myUpn.toLowerCase();
  const staff = event.actorRoles.some((role) => restrictedRoles.includes(role));
  const who = !event.actorUpn
    ? t('activity:actor.system')
    : mine
      ? t('activity:actor.you')
      : staff
        ? t('activity:actor.service_desk', { upn: event.actorUpn })
        : event.actorUpn;
  const reason =
    event.outcome === 'failure' && event.reason ? (exists(`errors:${event.reason}`) ? t(`errors:${event.reason}`) : event.reason) : null;
  return { what, who, bySomeoneElse: !mine && !!event.actorUpn, reason };
}
