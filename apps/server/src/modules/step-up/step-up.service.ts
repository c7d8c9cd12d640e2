import type { Kysely } from 'kysely';
import type { StepUpStatus } from '@mfa-portal/shared';
import type { Database, StepUpTable } from '../../db/schema.js';
import { stepUpRepository } from './step-up.repository.js';

/**
 * Step-up ("elevation"): a recent verification with an existing factor that allows sensitive changes
 * (deleting a device, creating bypass codes, adding a device when one exists) for `maxAgeSeconds`.
 * A step-up belongs to the sign-in session that earned it: another token of the same user (a second
 * browser, a copied token from another sign-in) does not inherit it. Records are kept by UPN and
 * session, so they work whichever MFA provider verified the factor.
 */
export interface SessionRef {
  upn: string;
  /** The opaque session key of the caller's token (`Caller.session`). */
  session: string;
}

export interface StepUpService {
  readonly maxAgeSeconds: number;
  /** Records a successful verification at `now`, for the caller's session only. */
  record(who: SessionRef, method: StepUpTable['method'], now?: Date): Promise<StepUpStatus>;
  status(who: SessionRef, now?: Date): Promise<StepUpStatus>;
  /** True when this session verified within the last `maxAgeSeconds`. */
  isFresh(who: SessionRef, now?: Date): Promise<boolean>;
  /** Ends every step-up of the user (sign-out, a lock, a lost device): on the ambient transaction. */
  endAll(upn: string): Promise<void>;
  /**
   * Forgets a removed account's step-ups, on the ambient transaction of whoever removes the account, so
   * a later account of the same name inherits none.
   */
  forgetAccount(upn: string): Promise<void>;
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
    async record(who, method, now = new Date()) {
      const key = who.upn.toLowerCase();
      await repo.deleteOlderThan(key, new Date(now.getTime() - maxAgeMs));
      await repo.insert(key, who.session, method, now);
      return active(method, now);
    },
    async status(who, now = new Date()) {
      const latest = await repo.latestSince(who.upn.toLowerCase(), who.session, new Date(now.getTime() - maxAgeMs), now);
      return latest ? active(latest.method, latest.verified_at) : inactive;
    },
    async isFresh(who, now = new Date()) {
      return (await service.status(who, now)).active;
    },
    async endAll(upn) {
      await repo.deleteAll(upn.toLowerCase());
    },
    async forgetAccount(upn) {
      await repo.deleteAccount(upn);
    },
  };
  return service;
}
