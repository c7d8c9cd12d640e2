import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry, AuditService } from '../audit/audit.service.js';
import { MfaError, type MfaProvider, type VerifyOutcome } from '../../mfa/port.js';
import { createMemoryRateLimiter } from '../../lib/rate-limit/rate-limit-store.js';
import { createVerificationService } from './verification.service.js';

function fakes(outcome: VerifyOutcome | (() => Promise<VerifyOutcome>), limits = { perUser: 3, perAddress: 5, windowSeconds: 60 }) {
  const entries: AuditEntry[] = [];
  const audit = {
    append: vi.fn(async (e: AuditEntry) => (entries.push(e), {} as never)),
    // No database here: nothing to roll back.
    atomically: <T>(fn: () => Promise<T>) => fn(),
    prepare: (e: AuditEntry) => e,
  } as unknown as AuditService;
  const verifyPasscode = vi.fn(typeof outcome === 'function' ? outcome : async () => outcome);
  const mfa = { verifyPasscode } as unknown as MfaProvider;
  const clock = { now: 1_000_000 };
  const now = () => clock.now;
  const limiters = {
    perUser: createMemoryRateLimiter({ limit: limits.perUser, intervalSeconds: limits.windowSeconds, now }),
    perAddress: createMemoryRateLimiter({ limit: limits.perAddress, intervalSeconds: limits.windowSeconds, now }),
  };
  const service = createVerificationService({ mfa, audit, limiters });
  return { service, entries, verifyPasscode, clock };
}

const ACTOR = { upn: 'alice@example.com', roles: [] };
const request = (over: Partial<Parameters<ReturnType<typeof createVerificationService>['verify']>[0]> = {}) => ({
  upn: 'Alice@Example.com',
  code: '123456',
  purpose: 'step_up' as const,
  actor: ACTOR,
  requestId: 'req-1',
  clientAddress: '192.0.2.1',
  ...over,
});
const SUCCESS: VerifyOutcome = { ok: true, method: 'totp', deviceId: 'dev-1', bypassId: null };
const INVALID: VerifyOutcome = { ok: false, reason: 'code_invalid', justLocked: false, retryAfterSeconds: null, statusReason: null };

describe('verification service', () => {
  it('audits a success with the method and purpose, for the lower-cased user', async () => {
    const { service, entries, verifyPasscode } = fakes(SUCCESS);
    expect(await service.verify(request())).toEqual(SUCCESS);
    expect(verifyPasscode).toHaveBeenCalledWith('alice@example.com', '123456', expect.objectContaining({}));
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'mfa.verify',
        outcome: 'success',
        target: 'alice@example.com',
        actor: ACTOR,
        requestId: 'req-1',
        clientAddress: '192.0.2.1',
        details: { purpose: 'step_up', method: 'totp', deviceId: 'dev-1' },
      }),
    ]);
  });

  it('audits a failure with its error code, and a lockout as a second event', async () => {
    const { service, entries } = fakes({
      ok: false,
      reason: 'code_replayed',
      justLocked: true,
      retryAfterSeconds: 900,
      statusReason: 'Too many',
    });
    await service.verify(request({ methods: ['passcode'] }));
    expect(entries.map((e) => [e.action, e.outcome, e.reason])).toEqual([
      ['mfa.verify', 'failure', 'mfa.code_replayed'],
      ['mfa.lockout', 'success', 'too_many_failed_attempts'],
    ]);
    expect(entries[0]!.details).toEqual({ purpose: 'step_up', methods: ['passcode'] });
  });

  it('audits a refusal thrown by the provider and passes it on', async () => {
    const { service, entries } = fakes(async () => {
      throw new MfaError('device_not_found');
    });
    await expect(service.verify(request({ deviceId: 'someone-else' }))).rejects.toMatchObject({ code: 'device_not_found' });
    expect(entries).toEqual([
      expect.objectContaining({
        outcome: 'failure',
        reason: 'device.not_found',
        details: { purpose: 'step_up', deviceId: 'someone-else' },
      }),
    ]);
  });

  it('rate limits per user: the code is not even checked, the refusal is audited, waiting is enough', async () => {
    const { service, entries, verifyPasscode, clock } = fakes(INVALID);
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3'])
      expect((await service.verify(request({ clientAddress: address }))).ok).toBe(false);
    expect(await service.verify(request({ clientAddress: '192.0.2.9' }))).toEqual({
      ok: false,
      reason: 'rate_limited',
      retryAfterSeconds: 20,
      justLocked: false,
      statusReason: null,
    });
    expect(verifyPasscode).toHaveBeenCalledTimes(3);
    expect(entries.at(-1)).toMatchObject({ reason: 'request.rate_limited', details: { limitedBy: 'user', retryAfterSeconds: 20 } });
    // Another user is not affected.
    expect(await service.verify(request({ upn: 'bob@example.com', clientAddress: '192.0.2.9' }))).toMatchObject({ reason: 'code_invalid' });
    clock.now += 20_000;
    expect(await service.verify(request())).toMatchObject({ reason: 'code_invalid' });
  });

  it('rate limits per address across users', async () => {
    const { service, entries } = fakes(INVALID, { perUser: 100, perAddress: 2, windowSeconds: 10 });
    await service.verify(request({ upn: 'a@example.com' }));
    await service.verify(request({ upn: 'b@example.com' }));
    expect(await service.verify(request({ upn: 'c@example.com' }))).toMatchObject({ reason: 'rate_limited', retryAfterSeconds: 5 });
    expect(entries.at(-1)).toMatchObject({ target: 'c@example.com', details: { limitedBy: 'address' } });
    expect(await service.verify(request({ upn: 'c@example.com', clientAddress: '198.51.100.1' }))).toMatchObject({
      reason: 'code_invalid',
    });
  });

  it('property: no audit entry ever holds the code', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[0-9]{6}$|^[0-9]{9}$/), fc.boolean(), async (code, ok) => {
        const { service, entries } = fakes(ok ? SUCCESS : { ...INVALID, justLocked: true, retryAfterSeconds: 60 });
        await service.verify(request({ code }));
        expect(JSON.stringify(entries)).not.toContain(code);
      }),
      { numRuns: 100 },
    );
  });
});
