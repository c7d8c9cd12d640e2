import type { ActivityEntry, ActivityStep } from '@mfa-portal/shared';

/** Entries of the activity as the API sends them, for the route tests. */

export const AT = '2025-05-01T14:05:00.000Z';
const none = { method: null, deviceName: null, serial: null, count: null } as const;

export const step = (over: Partial<ActivityStep> & Pick<ActivityStep, 'eventId' | 'step'>): ActivityStep => ({
  occurredAt: AT,
  outcome: 'success',
  reason: null,
  ...none,
  ...over,
});

export const entry = (over: Partial<ActivityEntry> & Pick<ActivityEntry, 'id' | 'story'>): ActivityEntry => ({
  occurredAt: AT,
  outcome: 'success',
  reason: null,
  actor: 'you',
  actorUpn: null,
  targetUpn: null,
  ...none,
  client: { address: '10.20.30.40', browser: 'Firefox 128', os: 'Windows 10', location: 'Head office' },
  steps: [step({ eventId: over.id, step: over.story })],
  reportable: true,
  ...over,
});
