import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activityResponseSchema, stepUpStatusSchema, userInfoResponseSchema } from '@mfa-portal/shared';
import { LOCKOUT_STATUS_REASON } from '../../mfa/builtin/builtin-provider.js';
import {
  addUser,
  advance,
  auditEvents,
  demoTokenCodes,
  errorOf,
  meTestApp,
  type MeTestApp,
  mfaSnapshot,
  totpAt,
} from '../../../test/me-api.js';

/** /api/me/step-up (and its expiry), verification lockout and rate limits, /api/me/activity. */

describe('POST /api/me/step-up', () => {
  let m: MeTestApp;
  beforeAll(async () => {
    m = await meTestApp({
      STEP_UP_MAX_AGE_SECONDS: '120',
      MFA_LOCKOUT_MAX_FAILURES: '3',
      MFA_LOCKOUT_MINUTES: '10',
      MFA_VERIFY_LIMIT_PER_USER: '100',
      MFA_VERIFY_LIMIT_PER_ADDRESS: '1000',
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-05-01T12:00:10.000Z'));
    await addUser(m.db, 'locky@example.com');
  });
  afterAll(async () => {
    vi.useRealTimers();
    await m.close();
  });

  it('GET reports no step-up at first', async () => {
    const res = await m.call('bob@example.com', 'GET', '/step-up');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ active: false, method: null, verifiedAt: null, expiresAt: null, maxAgeSeconds: 120 });
  });

  it('200 with a valid token code: active until the configured maximum age', async () => {
    const [code] = await demoTokenCodes(m.db, 'D100-0001', 1);
    const res = await m.call('bob@example.com', 'POST', '/step-up', { method: 'passcode', code });
    expect(res.statusCode).toBe(200);
    const status = stepUpStatusSchema.parse(res.json());
    expect(status).toEqual({
      active: true,
      method: 'passcode',
      verifiedAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 120_000).toISOString(),
      maxAgeSeconds: 120,
    });
    expect((await m.call('bob@example.com', 'GET', '/step-up')).json()).toEqual(status);
    // A step-up is personal.
    expect((await m.call('alice@example.com', 'GET', '/step-up')).json().active).toBe(false);
    expect((await auditEvents(m.db, 'mfa.verify')).at(-1)).toMatchObject({
      outcome: 'success',
      target_upn: 'bob@example.com',
      details: { purpose: 'step_up', method: 'hotp' },
    });
  });

  it('expires after the maximum age (configurable STEP_UP_MAX_AGE_SECONDS)', async () => {
    advance(119);
    expect((await m.call('bob@example.com', 'GET', '/step-up')).json().active).toBe(true);
    advance(1);
    expect((await m.call('bob@example.com', 'GET', '/step-up')).json().active).toBe(false);
    const res = await m.call('bob@example.com', 'POST', '/bypass-codes', { count: 1, validitySeconds: 60 });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toEqual({ code: 'auth.step_up_required', message: expect.any(String), details: { maxAgeSeconds: 120 } });
  });

  it('422 for a used token code (a counter is never accepted twice), audited as a failure without the code', async () => {
    const [code] = await demoTokenCodes(m.db, 'D100-0001', 1, -1);
    const res = await m.call('bob@example.com', 'POST', '/step-up', { method: 'passcode', code });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatchObject({ code: 'mfa.code_invalid', details: { field: 'code' } });
    const event = (await auditEvents(m.db, 'mfa.verify')).at(-1);
    expect(event).toMatchObject({ outcome: 'failure', reason: 'mfa.code_invalid', details: { purpose: 'step_up', methods: ['passcode'] } });
    expect(JSON.stringify(event)).not.toContain(code);
    // The failure counted: a success clears it again.
    const [next] = await demoTokenCodes(m.db, 'D100-0001', 1);
    expect((await m.call('bob@example.com', 'POST', '/step-up', { method: 'passcode', code: next })).statusCode).toBe(200);
  });

  it('422 mfa.code_replayed for an authenticator code used twice', async () => {
    const start = (await m.call('alice@example.com', 'POST', '/devices/authenticator')).json();
    expect(
      (
        await m.call('alice@example.com', 'POST', `/devices/authenticator/${start.enrolmentId}/confirm`, {
          code: totpAt(start.secret),
          name: 'App',
        })
      ).statusCode,
    ).toBe(201);
    const sameStep = await m.call('alice@example.com', 'POST', '/step-up', { method: 'passcode', code: totpAt(start.secret) });
    expect(sameStep.statusCode).toBe(422);
    expect(errorOf(sameStep).code).toBe('mfa.code_replayed');
    advance(30);
    expect((await m.call('alice@example.com', 'POST', '/step-up', { method: 'passcode', code: totpAt(start.secret) })).statusCode).toBe(
      200,
    );
    expect(errorOf(await m.call('alice@example.com', 'POST', '/step-up', { method: 'passcode', code: totpAt(start.secret) })).code).toBe(
      'mfa.code_replayed',
    );
  });

  it.each([
    ['no method', { code: '123456' }, 'method'],
    ['an unknown method', { method: 'push', code: '123456' }, 'method'],
    ['a passcode of 9 digits', { method: 'passcode', code: '123456789' }, 'code'],
    ['a bypass code of 6 digits', { method: 'bypass', code: '123456' }, 'code'],
    ['letters in a bypass code', { method: 'bypass', code: '123 456 78a' }, 'code'],
    ['no code', { method: 'passcode' }, 'code'],
  ])('400 naming the field for %s, nothing changed', async (_label, payload, field) => {
    const before = await mfaSnapshot(m.db);
    const res = await m.call('bob@example.com', 'POST', '/step-up', payload);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'request.invalid', details: { field } });
    expect(await mfaSnapshot(m.db)).toBe(before);
  });

  it('409 mfa.no_factor for a user with nothing that gives a passcode', async () => {
    await addUser(m.db, 'empty@example.com');
    const res = await m.call('empty@example.com', 'POST', '/step-up', { method: 'passcode', code: '123456' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('mfa.no_factor');
  });

  it('404 for a user not provisioned, 403 for a disabled user', async () => {
    expect(errorOf(await m.call('nomfa@example.com', 'POST', '/step-up', { method: 'passcode', code: '123456' })).code).toBe(
      'mfa.user_not_provisioned',
    );
    const res = await m.call('disabled@example.com', 'POST', '/step-up', { method: 'passcode', code: '123456' });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('mfa.user_disabled');
  });

  it('locks the user after repeated failures with a reason (403, Retry-After), visible through getuserinfo, then lifts', async () => {
    const codes = await demoTokenCodes(m.db, 'D100-0002', 2);
    expect((await m.call('locky@example.com', 'POST', '/devices/hardware-token', { serial: 'D100-0002', codes })).statusCode).toBe(201);
    const fail = () => m.call('locky@example.com', 'POST', '/step-up', { method: 'passcode', code: '000000' });
    expect((await fail()).statusCode).toBe(422);
    expect((await fail()).statusCode).toBe(422);
    const third = await fail();
    expect(third.statusCode).toBe(403);
    expect(third.headers['retry-after']).toBe('600');
    expect(errorOf(third)).toMatchObject({
      code: 'mfa.user_locked_out',
      details: { reason: LOCKOUT_STATUS_REASON, retryAfterSeconds: 600 },
    });
    expect((await auditEvents(m.db, 'mfa.lockout')).at(-1)).toMatchObject({
      target_upn: 'locky@example.com',
      reason: 'too_many_failed_attempts',
    });
    // The lockout ended every session of the account: a token issued up to it is refused from now on.
    expect((await fail()).statusCode).toBe(401);
    advance(1);

    const info = await m.t.app.inject({
      url: '/account/getuserinfo?userid=locky@example.com',
      headers: { authorization: `Bearer ${await m.token('locky@example.com')}` },
    });
    expect(userInfoResponseSchema.parse(info.json()).mfa).toMatchObject({ status: 'locked_out', statusReason: LOCKOUT_STATUS_REASON });

    // While locked, even a right code is refused and not used up; the other routes refuse too.
    const [right] = await demoTokenCodes(m.db, 'D100-0002', 1);
    const refused = await m.call('locky@example.com', 'POST', '/step-up', { method: 'passcode', code: right });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('mfa.user_locked_out');
    const devices = await m.call('locky@example.com', 'GET', '/devices');
    expect(devices.statusCode).toBe(403);
    expect(errorOf(devices).code).toBe('mfa.user_locked_out');

    advance(600);
    expect((await m.call('locky@example.com', 'POST', '/step-up', { method: 'passcode', code: right })).statusCode).toBe(200);
    const after = await m.t.app.inject({
      url: '/account/getuserinfo?userid=locky@example.com',
      headers: { authorization: `Bearer ${await m.token('locky@example.com')}` },
    });
    expect(after.json().mfa).toMatchObject({ status: 'active', statusReason: null });
  });
});

describe('verification rate limits', () => {
  let m: MeTestApp;
  beforeAll(async () => {
    m = await meTestApp({
      MFA_VERIFY_LIMIT_PER_USER: '3',
      MFA_VERIFY_LIMIT_PER_ADDRESS: '5',
      MFA_VERIFY_LIMIT_WINDOW_SECONDS: '60',
      MFA_LOCKOUT_MAX_FAILURES: '50',
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-06-01T12:00:00.000Z'));
    for (const u of ['r1', 'r2', 'r3']) await addUser(m.db, `${u}@example.com`);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await m.close();
  });

  const attempt = (upn: string, remoteAddress: string) =>
    m.token(upn).then((token) =>
      m.t.app.inject({
        method: 'POST',
        url: '/api/me/step-up',
        remoteAddress,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ method: 'bypass', code: '123456789' }),
      }),
    );

  it('429 with Retry-After per user, whatever the address; audited; allowed again after waiting', async () => {
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) expect((await attempt('r1@example.com', address)).statusCode).toBe(422);
    const limited = await attempt('r1@example.com', '192.0.2.4');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('20');
    expect(errorOf(limited)).toMatchObject({ code: 'request.rate_limited', details: { retryAfterSeconds: 20 } });
    expect((await auditEvents(m.db, 'mfa.verify')).at(-1)).toMatchObject({
      outcome: 'failure',
      reason: 'request.rate_limited',
      target_upn: 'r1@example.com',
      details: { limitedBy: 'user' },
    });
    // Refused attempts are not checked: the failure count did not move.
    expect(
      (await m.db.selectFrom('mfa_user').select('failed_attempts').where('username', '=', 'r1@example.com').executeTakeFirstOrThrow())
        .failed_attempts,
    ).toBe(3);
    advance(20);
    expect((await attempt('r1@example.com', '192.0.2.4')).statusCode).toBe(422);
  });

  it('429 per address, whatever the user', async () => {
    advance(600);
    expect((await attempt('r2@example.com', '198.51.100.7')).statusCode).toBe(422);
    expect((await attempt('r2@example.com', '198.51.100.7')).statusCode).toBe(422);
    expect((await attempt('r2@example.com', '198.51.100.7')).statusCode).toBe(422);
    expect((await attempt('r3@example.com', '198.51.100.7')).statusCode).toBe(422);
    expect((await attempt('r3@example.com', '198.51.100.7')).statusCode).toBe(422);
    const limited = await attempt('r3@example.com', '198.51.100.7');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await auditEvents(m.db, 'mfa.verify')).at(-1)).toMatchObject({
      reason: 'request.rate_limited',
      details: { limitedBy: 'address' },
    });
    // Another address is not limited (r1's own budget has refilled meanwhile).
    expect((await attempt('r1@example.com', '198.51.100.8')).statusCode).toBe(422);
  });

  it('limits token claims and enrolment confirmations too', async () => {
    advance(600);
    const claim = () => m.call('r1@example.com', 'POST', '/devices/hardware-token', { serial: 'D100-0002', codes: ['000000', '000001'] });
    for (let i = 0; i < 3; i += 1) expect((await claim()).statusCode).toBe(422);
    const limited = await claim();
    expect(limited.statusCode).toBe(429);
    expect((await auditEvents(m.db, 'device.claim_token')).at(-1)).toMatchObject({ reason: 'request.rate_limited' });
  });
});

describe('GET /api/me/activity', () => {
  let m: MeTestApp;
  beforeAll(async () => {
    m = await meTestApp();
    await addUser(m.db, 'act@example.com');
    await addUser(m.db, 'other@example.com');
    for (let i = 0; i < 4; i += 1) await m.call('act@example.com', 'POST', '/step-up', { method: 'bypass', code: '111111111' });
    await m.call('other@example.com', 'POST', '/step-up', { method: 'bypass', code: '111111111' });
  });
  afterAll(() => m.close());

  it('tells the tries of one confirmation as one entry, and only mine', async () => {
    const res = await m.call('act@example.com', 'GET', '/activity?limit=1');
    expect(res.statusCode).toBe(200);
    const page = activityResponseSchema.parse(res.json());
    expect(page.nextCursor).toBeNull();
    expect(page.entries).toHaveLength(1);
    expect(page.entries[0]).toMatchObject({
      story: 'step_up',
      outcome: 'failure',
      reason: 'mfa.code_invalid',
      actor: 'you',
      targetUpn: null,
    });
    expect(page.entries[0]!.steps.map((s) => `${s.step}:${s.outcome}:${s.reason}`)).toEqual(
      Array.from({ length: 4 }, () => 'code_wrong:failure:mfa.code_invalid'),
    );
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=abc', 'cursor'],
    ['cursor=-1', 'cursor'],
  ])('400 naming the field for %s', async (query, field) => {
    const res = await m.call('act@example.com', 'GET', `/activity?${query}`);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'request.invalid', details: { field } });
  });
});
