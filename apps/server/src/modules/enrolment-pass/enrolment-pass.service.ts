import { createHash, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  ENROLMENT_PASS_GRANT_SECONDS,
  type EnrolmentPassInfo,
  type EnrolmentPolicyResponse,
  type FirstDevicePolicy,
} from '@mfa-portal/shared';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { AsyncRateLimiter } from '../../lib/rate-limit/rate-limit-store.js';
import type { MfaProvider } from '../../mfa/port.js';
import type { AuditService } from '../audit/audit.service.js';
import { enrolmentPassRepository, type EnrolmentPassRow } from './enrolment-pass.repository.js';

/**
 * First-device policy and enrolment passes. `open`: a password alone enrols the first
 * device (the demo default); `window`: within N days of provisioning, then only with a pass; `pass`:
 * always with a pass. A pass is a temporary access pass the helpdesk issues with a reason (one or
 * several uses, at most 8 hours, shown once, stored as a hash, revocable, audited); redeeming it opens
 * the add-device flow for {@link ENROLMENT_PASS_GRANT_SECONDS}.
 */

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const PASS_LENGTH = 16;

export const normalisePass = (pass: string) => pass.toUpperCase().replace(/[^A-Z0-9]/g, '');
const hashPass = (pass: string) =>
  createHash('sha256')
    .update(`enrolment-pass:${normalisePass(pass)}`, 'utf8')
    .digest('hex');

export function generatePass(): string {
  const chars = Array.from({ length: PASS_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]!).join('');
  return chars.match(/.{4}/g)!.join('-');
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
export const toPassInfo = (r: EnrolmentPassRow): EnrolmentPassInfo => ({
  id: r.id,
  createdAt: iso(r.created_at)!,
  expiresAt: iso(r.expires_at)!,
  maxUses: r.max_uses,
  usesLeft: r.uses_left,
  createdBy: r.created_by,
  reason: r.reason,
  redeemedAt: iso(r.redeemed_at),
  revokedAt: iso(r.revoked_at),
});

export interface ActorContext {
  upn: string;
  roles: readonly string[];
  requestId: string;
  clientAddress: string | null;
  /** The caller's sign-in session: a redeemed pass opens enrolment for this session only. */
  session: string;
}

/** Whose first-device enrolment is asked about: a user in one sign-in session (with their roles, when known). */
export interface SessionRef {
  upn: string;
  session: string;
  roles?: readonly string[];
}

export interface EnrolmentPassDeps {
  db: Kysely<Database>;
  mfa: MfaProvider;
  audit: AuditService;
  policy: FirstDevicePolicy;
  windowDays: number;
  /** Budget of redemption attempts per user (guessing). */
  limiter: AsyncRateLimiter;
  /**
   * Whether roles make an account protected. A protected account never enrols on its own word: its first
   * device needs a pass whatever the policy (one only a Solution Administrator or the operator issues).
   */
  isProtected?: (roles: readonly string[]) => boolean;
  now?: () => Date;
}

export function createEnrolmentPassService(deps: EnrolmentPassDeps) {
  const { db, mfa, audit } = deps;
  const clock = deps.now ?? (() => new Date());
  const repo = enrolmentPassRepository(db);
  const grantMs = ENROLMENT_PASS_GRANT_SECONDS * 1000;

  // The window counts from provisioning (SCIM create or just-in-time creation), not from the first
  // time the portal saw the name; a user never provisioned that way has no window.
  async function windowEnd(upn: string): Promise<Date | null> {
    if (deps.policy !== 'window') return null;
    const provisioned = await repo.provisionedAt(upn);
    return provisioned ? new Date(new Date(provisioned).getTime() + deps.windowDays * 86_400_000) : null;
  }

  async function status(who: SessionRef, now: Date): Promise<EnrolmentPolicyResponse> {
    const key = who.upn.toLowerCase();
    const grant = await repo.latestGrant(key, who.session, new Date(now.getTime() - grantMs));
    const grantedUntil = grant?.redeemed_at ? new Date(new Date(grant.redeemed_at).getTime() + grantMs) : null;
    const end = await windowEnd(key);
    const protectedAccount = who.roles !== undefined && (deps.isProtected?.(who.roles) ?? false);
    let passRequired = false;
    if (!grantedUntil && (protectedAccount || (deps.policy !== 'open' && !(end && end.getTime() > now.getTime())))) {
      const devices = await mfa.listDevices(key).catch(() => []);
      passRequired = devices.length === 0;
    }
    return { policy: deps.policy, passRequired, windowEndsAt: iso(end), passGrantedUntil: iso(grantedUntil) };
  }

  /**
   * A protected account may add its first device itself only with a pass redeemed in this session, and
   * only while it has no device: from the first one on, its changes are a Solution Administrator's.
   */
  async function protectedFirstDeviceAllowed(who: SessionRef, now: Date): Promise<boolean> {
    const grant = await repo.latestGrant(who.upn.toLowerCase(), who.session, new Date(now.getTime() - grantMs));
    if (!grant?.redeemed_at) return false;
    return (await mfa.listDevices(who.upn.toLowerCase())).length === 0;
  }

  return {
    status: (who: SessionRef) => status(who, clock()),
    protectedFirstDeviceAllowed: (who: SessionRef) => protectedFirstDeviceAllowed(who, clock()),

    /** Before a first-device enrolment without step-up: 403 `enrolment.pass_required` when the policy says so. */
    async assertFirstDeviceAllowed(who: SessionRef, now = clock()): Promise<void> {
      if (deps.policy === 'open') return;
      if ((await status(who, now)).passRequired) throw new AppError({ code: 'enrolment.pass_required', details: { policy: deps.policy } });
    },

    async redeem(ctx: ActorContext, pass: string): Promise<EnrolmentPolicyResponse> {
      const upn = ctx.upn.toLowerCase();
      const limited = await deps.limiter.consume(upn);
      const base = {
        actor: { upn, roles: ctx.roles },
        target: upn,
        action: 'enrolment_pass.redeem',
        requestId: ctx.requestId,
        clientAddress: ctx.clientAddress,
      };
      if (!limited.allowed) {
        await audit.append({ ...base, outcome: 'failure', reason: 'request.rate_limited' });
        throw new AppError({
          code: 'request.rate_limited',
          details: { retryAfterSeconds: limited.retryAfterSeconds },
          headers: { 'retry-after': String(limited.retryAfterSeconds) },
        });
      }
      const now = clock();
      const redeemed = await db.transaction().execute(async (trx) => {
        const r = enrolmentPassRepository(trx);
        const row = await r.findLive(upn, hashPass(pass), now);
        if (!row) return null;
        const used = await r.redeem(row.id, now, ctx.session);
        await audit.append({ ...base, outcome: 'success', details: { passId: used.id, usesLeft: used.uses_left } }, { now });
        return used;
      });
      if (!redeemed) {
        await audit.append({ ...base, outcome: 'failure', reason: 'enrolment_pass.invalid' });
        throw new AppError({ code: 'enrolment_pass.invalid', details: { field: 'pass' } });
      }
      return status({ upn, session: ctx.session }, now);
    },

    /** Ends every session's redemption grant for the user (on the ambient transaction). */
    endGrants: (upn: string) => repo.endGrants(upn.toLowerCase()).then(() => undefined),

    async issue(
      ctx: ActorContext,
      role: string,
      target: string,
      body: { reason: string; ticket?: string; uses: number; lifetimeMinutes: number },
      /** Added to the audit event (the identity verification the issuer relied on). */
      extraDetails: Record<string, unknown> = {},
    ) {
      const upn = target.toLowerCase();
      const now = clock();
      const pass = generatePass();
      const expiresAt = new Date(now.getTime() + body.lifetimeMinutes * 60_000);
      const row = await db.transaction().execute(async (trx) => {
        const created = await enrolmentPassRepository(trx).insert({
          upn,
          passHash: hashPass(pass),
          uses: body.uses,
          expiresAt,
          createdBy: ctx.upn.toLowerCase(),
          reason: body.reason,
          now,
        });
        await audit.append(
          {
            actor: { upn: ctx.upn, roles: ctx.roles },
            target: upn,
            action: 'admin.user.issue_enrolment_pass',
            outcome: 'success',
            requestId: ctx.requestId,
            clientAddress: ctx.clientAddress,
            details: {
              role,
              reason: body.reason,
              ...(body.ticket ? { ticket: body.ticket } : {}),
              passId: created.id,
              uses: body.uses,
              expiresAt: expiresAt.toISOString(),
              ...extraDetails,
            },
          },
          { now },
        );
        return created;
      });
      return { pass, info: toPassInfo(row) };
    },

    async list(target: string) {
      return { passes: (await repo.listForUser(target.toLowerCase())).map(toPassInfo) };
    },

    async revoke(ctx: ActorContext, role: string, target: string, id: string, j: { reason?: string; ticket?: string } = {}) {
      const upn = target.toLowerCase();
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw new AppError({ code: 'enrolment_pass.not_found' });
      const now = clock();
      return db.transaction().execute(async (trx) => {
        const row = await enrolmentPassRepository(trx).revoke(upn, id, now);
        if (!row) throw new AppError({ code: 'enrolment_pass.not_found' });
        await audit.append(
          {
            actor: { upn: ctx.upn, roles: ctx.roles },
            target: upn,
            action: 'admin.user.revoke_enrolment_pass',
            outcome: 'success',
            requestId: ctx.requestId,
            clientAddress: ctx.clientAddress,
            details: { role, passId: id, ...j },
          },
          { now },
        );
        return toPassInfo(row);
      });
    },
  };
}

export type EnrolmentPassService = ReturnType<typeof createEnrolmentPassService>;
