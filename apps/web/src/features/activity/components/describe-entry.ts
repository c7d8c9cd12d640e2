import type { TFunction } from 'i18next';
import type { ActivityEntry, ActivityOutcome, ActivityStep } from '@mfa-portal/shared';

/** Tells which translation keys exist (plural forms resolved with `count`). */
export type KeyExists = (key: string, options?: { count?: number }) => boolean;

/** What a sentence of an entry or a step may name. */
interface Particulars {
  method: ActivityEntry['method'];
  deviceName: string | null;
  serial: string | null;
  count: number | null;
}

/**
 * The sentence of a story or a step (`activity.json`: `story.<name>.<outcome>`, `step.<name>.<outcome>`).
 * A sentence that names a device has an `_unnamed` form for when the name is not known, and one that
 * can say how someone proved who they were has a `_with` form; anything without words (a newer
 * server's story) falls back to the safe `story.other` sentences, never to an internal name.
 */
function sentence(
  t: TFunction,
  exists: KeyExists,
  kind: 'story' | 'step',
  name: string,
  outcome: ActivityOutcome,
  p: Particulars,
  people: { who: string; whom: string; whose: string },
): string {
  const base = kind === 'step' && exists(`activity:step.${name}.${outcome}`) ? `activity:step.${name}` : `activity:story.${name}`;
  let key = `${base}.${outcome}`;
  const count = p.count ?? undefined;
  if (!exists(key, { count })) key = `activity:story.other.${outcome}`;
  if (!p.deviceName && exists(`${key}_unnamed`)) key = `${key}_unnamed`;
  else if (p.method && exists(`${key}_with`, { count })) key = `${key}_with`;
  return t(key, {
    ...people,
    name: p.deviceName ?? '',
    serial: p.serial ?? '',
    method: p.method ? t(`activity:method.${p.method}`) : '',
    ...(count !== undefined ? { count } : {}),
  });
}

export interface DescribedEntry {
  /** What happened, in one sentence ("Someone tried to sign in as you with a wrong code"). */
  what: string;
  /** "Firefox 128 on Windows 10", when known. */
  browser: string | null;
  /** "Head office (10.20.30.40)", or the address alone, when known. */
  place: string | null;
  /** Why it failed, in words (only translated reasons are shown). */
  reason: string | null;
  /** Each step, oldest first. */
  steps: Array<{ id: string; at: string; text: string; outcome: ActivityOutcome; reason: string | null }>;
}

/** Turns an entry of the activity into the words of the timeline. */
export function describeEntry(entry: ActivityEntry, t: TFunction, exists: KeyExists): DescribedEntry {
  const other = entry.targetUpn;
  const people = {
    who: t(`activity:who.${entry.actor}`, { upn: entry.actorUpn ?? '' }),
    whom: other ?? t('activity:whom.you'),
    whose: other ? t('activity:whose.other', { upn: other }) : t('activity:whose.you'),
  };
  const reasonText = (code: string | null) => (code && exists(`errors:${code}`) ? t(`errors:${code}`) : null);
  const c = entry.client;
  const browser = c.browser && c.os ? t('activity:client.browser_on_os', { browser: c.browser, os: c.os }) : (c.browser ?? c.os);
  const place = c.address ? (c.location ? t('activity:client.address_at', { address: c.address, location: c.location }) : c.address) : null;
  return {
    what: sentence(t, exists, 'story', entry.story, entry.outcome, entry, people),
    browser,
    place,
    reason: entry.outcome === 'failure' ? reasonText(entry.reason) : null,
    steps: entry.steps.map((s: ActivityStep) => ({
      id: s.eventId,
      at: s.occurredAt,
      text: sentence(t, exists, 'step', s.step, s.outcome, s, people),
      outcome: s.outcome,
      reason: s.outcome === 'failure' ? reasonText(s.reason) : null,
    })),
  };
}
