import type { Kysely } from 'kysely';
import type { StepUpStatus } from '@mfa-portal/shared';
import type { Database, StepUpTable } from '../../db/schema.js';
import { stepUpRepository } from './step-up.repository.js';

/**
 * Step-up ("elevation"): a recent verification with an existing factor that allows sensitive changes
 * (deleting a device, creating bypass codes, adding a device when one exists) for `maxAgeSeconds`.
 * Records are kept by UPN, so they work whichever MFA provider verified the factor.
 */
export interface StepUpService {
  readonly maxAgeSeconds: number;
  /** Records a successful verification at `now`. */
  record(upn: string, method: StepUpTable['method'], now?: Date): Promise<StepUpStatus>;
  status(upn: string, now?: Date): Promise<StepUpStatus>;
  /** True when the user verified within the last `maxAgeSeconds`. */
  isFresh(upn: string, now?: Date): Promise<boolean>;
}

export function createStepUpService(db: Kysely<Database>, opts: { maxAgeSeconds: number }): StepUpService {
  const repo = stepUpRepository(db);
  const maxAgeMs = opts.maxAgeSeconds * 1000;
  const inactive: StepUpStatus = { active: false, method: null, verifiedAt: null, expiresAt: null, maxAgeSeconds: opts.maxAgeSeconds };
  const active = (method: StepUpTable['method'], verifiedAt: Date): StepUpStatus => ({
    active: true,
    method,
    verifiedAt: verifiedAt.toISOString(),
    expiresAt: new Date(verifiedAt.getTime() + maxAgeMs).toISOString(),
    maxAgeSeconds: opts.maxAgeSeconds,
  });

  const service: StepUpService = {
    maxAgeSeconds: opts.maxAgeSeconds,
    async record(upn, method, now = new Date()) {
      const key = upn.toLowerCase();
      await repo.deleteOlderThan(key, new Date(now.getTime() - maxAgeMs));
      await repo.insert(key, method, now);
      return active(method, now);
    },
    async status(upn, now = new Date()) {
      const latest = await repo.latestSince(upn.toLowerCase(), new Date(now.getTime() - maxAgeMs), now);
      return latest ? active(latest.method, latest.verified_at) : inactive;
    },
    async isFresh(upn, now = new Date()) {
      return (await service.status(upn, now)).active;
    },
  };
  return service;
}
