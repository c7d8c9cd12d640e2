import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bypassCodeInfoSchema, bypassCodesResponseSchema, createBypassCodesResponseSchema } from '@mfa-portal/shared';
import { advance, auditEvents, demoTokenCodes, errorOf, meTestApp, type MeTestApp, mfaSnapshot } from '../../../test/me-api.js';

/** /api/me/bypass-codes: create (after step-up), list as metadata, revoke; and using them for step-up. */

let m: MeTestApp;
const BOB = 'bob@example.com';

async function stepUp(upn = BOB) {
  const [code] = await demoTokenCodes(m.db, 'D100-0001', 1);
  expect((await m.call(upn, 'POST', '/step-up', { method: 'passcode', code })).statusCode).toBe(200);
}
async function listed(upn = BOB) {
  const res = await m.call(upn, 'GET', '/bypass-codes');
  expect(res.statusCode).toBe(200);
  return bypassCodesResponseSchema.parse(res.json()).codes;
}
async function refusedWithoutChange(
  run: () => Promise<{ statusCode: number; json(): unknown }>,
  status: number,
  code: string,
  field?: string,
) {
  const before = await mfaSnapshot(m.db);
  const res = await run();
  expect(res.statusCode).toBe(status);
  expect(errorOf(res).code).toBe(code);
  if (field !== undefined) expect(errorOf(res).details?.field).toBe(field);
  expect(await mfaSnapshot(m.db)).toBe(before);
}

beforeAll(async () => {
  // Many step-ups under a frozen clock: lift the verification budget (its own tests are in me-step-up).
  m = await meTestApp({ MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '10000' });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2030-04-01T08:00:00.000Z'));
});
afterAll(async () => {
  vi.useRealTimers();
  await m.close();
});

describe('POST /api/me/bypass-codes', () => {
  it('403 auth.step_up_required without a recent step-up, nothing changed', async () => {
    await refusedWithoutChange(
      () => m.call(BOB, 'POST', '/bypass-codes', { count: 2, validitySeconds: 3600 }),
      403,
      'auth.step_up_required',
    );
  });

  it.each([
    ['no count', { validitySeconds: 3600 }, 'count'],
    ['count 0', { count: 0, validitySeconds: 3600 }, 'count'],
    ['count 11', { count: 11, validitySeconds: 3600 }, 'count'],
    ['a fractional count', { count: 1.5, validitySeconds: 3600 }, 'count'],
    ['a count as text', { count: '3', validitySeconds: 3600 }, 'count'],
    ['no validity', { count: 1 }, 'validitySeconds'],
    ['validity 0 ("unlimited")', { count: 1, validitySeconds: 0 }, 'validitySeconds'],
    ['validity under a minute', { count: 1, validitySeconds: 59 }, 'validitySeconds'],
    ['validity over 7 days', { count: 1, validitySeconds: 604_801 }, 'validitySeconds'],
    ['a negative validity', { count: 1, validitySeconds: -60 }, 'validitySeconds'],
    ['reuse 0', { count: 1, validitySeconds: 60, reuseCount: 0 }, 'reuseCount'],
    ['reuse 11', { count: 1, validitySeconds: 60, reuseCount: 11 }, 'reuseCount'],
    ['replaceExisting as text', { count: 1, validitySeconds: 60, replaceExisting: 'yes' }, 'replaceExisting'],
  ])('400 naming the field for %s, nothing changed (even after a step-up)', async (_label, payload, field) => {
    await stepUp();
    await refusedWithoutChange(() => m.call(BOB, 'POST', '/bypass-codes', payload), 400, 'request.invalid', field);
  });

  it('201: creates the codes, shown once, stored as keyed hashes, audited without them', async () => {
    await stepUp();
    const res = await m.call(BOB, 'POST', '/bypass-codes', { count: 3, validitySeconds: 604_800, reuseCount: 2 });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = createBypassCodesResponseSchema.parse(res.json());
    expect(body.replaced).toBe(0);
    expect(body.codes).toHaveLength(3);
    for (const c of body.codes) {
      expect(c.code).toMatch(/^[0-9]{3} [0-9]{3} [0-9]{3}$/);
      expect(c).toMatchObject({ usesLeft: 2, expiresAt: new Date(Date.now() + 604_800_000).toISOString() });
    }
    const digits = body.codes.map((c) => c.code.replaceAll(' ', ''));
    const stored = JSON.stringify(await m.db.selectFrom('mfa_bypass_code').selectAll().execute());
    const audit = JSON.stringify(await auditEvents(m.db));
    for (const d of digits) {
      expect(stored).not.toContain(d);
      expect(audit).not.toContain(d);
    }
    expect((await auditEvents(m.db, 'bypass.create')).at(-1)).toMatchObject({
      outcome: 'success',
      details: { count: 3, reuseCount: 2, bypassIds: body.codes.map((c) => c.id) },
    });
  });

  it('lists them as metadata only (GET)', async () => {
    const codes = await listed();
    expect(codes).toHaveLength(3);
    expect(codes[0]).toEqual({
      id: expect.any(String),
      createdAt: new Date().toISOString(),
      expiresAt: expect.any(String),
      usesLeft: 2,
      reuseCount: 2,
      createdBy: BOB,
    });
  });

  it('keeps existing codes unless replaceExisting is set', async () => {
    await stepUp();
    const more = await m.call(BOB, 'POST', '/bypass-codes', { count: 2, validitySeconds: 60 });
    expect(more.statusCode).toBe(201);
    expect(await listed()).toHaveLength(5);
    const replace = await m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 120, replaceExisting: true });
    expect(replace.statusCode).toBe(201);
    expect(replace.json().replaced).toBe(5);
    expect((await listed()).map((c) => c.id)).toEqual([replace.json().codes[0].id]);
  });

  it('409 bypass.too_many_live_codes beyond 100 live codes, nothing changed', async () => {
    await stepUp();
    for (let i = 0; i < 9; i += 1)
      expect((await m.call(BOB, 'POST', '/bypass-codes', { count: 10, validitySeconds: 3600 })).statusCode).toBe(201);
    await m.call(BOB, 'POST', '/bypass-codes', { count: 9, validitySeconds: 3600 });
    expect(await listed()).toHaveLength(100);
    await refusedWithoutChange(
      () => m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 3600 }),
      409,
      'bypass.too_many_live_codes',
      'count',
    );
    const replaced = await m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 3600, replaceExisting: true });
    expect(replaced.json().replaced).toBe(100);
  });
});

describe('DELETE /api/me/bypass-codes/:id', () => {
  it('200: revokes my code, which then neither lists nor works', async () => {
    await stepUp();
    const created = (await m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 3600, replaceExisting: true })).json();
    const [code] = created.codes;
    const res = await m.call(BOB, 'DELETE', `/bypass-codes/${code.id}`);
    expect(res.statusCode).toBe(200);
    expect(bypassCodeInfoSchema.parse(res.json()).id).toBe(code.id);
    expect(await listed()).toEqual([]);
    const use = await m.call(BOB, 'POST', '/step-up', { method: 'bypass', code: code.code });
    expect(use.statusCode).toBe(422);
    expect(errorOf(use).code).toBe('mfa.code_invalid');
    expect((await auditEvents(m.db, 'bypass.revoke')).at(-1)).toMatchObject({ outcome: 'success', details: { bypassId: code.id } });
  });

  it('404 bypass.not_found for another user’s code, nothing changed', async () => {
    await stepUp();
    const created = (await m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 3600 })).json();
    await refusedWithoutChange(
      () => m.call('alice@example.com', 'DELETE', `/bypass-codes/${created.codes[0].id}`),
      404,
      'bypass.not_found',
    );
    expect((await listed()).map((c) => c.id)).toContain(created.codes[0].id);
  });

  it('400 naming the id when it is not an id', async () => {
    await refusedWithoutChange(() => m.call(BOB, 'DELETE', '/bypass-codes/123'), 400, 'request.invalid', 'id');
  });
});

describe('bypass codes at step-up', () => {
  it('a single-use code works once; a code with reuse 2 twice; an expired code not at all', async () => {
    await stepUp();
    const single = (await m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 3600, replaceExisting: true })).json().codes[0];
    const double = (await m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 60, reuseCount: 2 })).json().codes[0];
    const use = (code: string) => m.call(BOB, 'POST', '/step-up', { method: 'bypass', code });
    expect((await use(single.code)).statusCode).toBe(200);
    expect((await use(single.code)).statusCode).toBe(422);
    expect((await use(double.code.replaceAll(' ', '-'))).json()).toMatchObject({ active: true, method: 'bypass' });
    expect((await use(double.code)).statusCode).toBe(200);
    expect((await use(double.code)).statusCode).toBe(422);
    const expiring = (await m.call(BOB, 'POST', '/bypass-codes', { count: 1, validitySeconds: 60 })).json().codes[0];
    advance(60);
    expect((await use(expiring.code)).statusCode).toBe(422);
  });
});
