import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { DatabaseHandle } from '../../db/database.js';
import { createTestDatabase } from '../../../test/database.js';
import { derivePepper } from '../mfa-keys.js';
import { MfaError, type MfaErrorCode, type MfaProvider } from '../port.js';
import { createBuiltinProvider, deviceSecretAad, LOCKOUT_STATUS_REASON, MAX_PENDING_ENROLMENTS } from './builtin-provider.js';
import { hashBypassCode } from '../common/bypass-codes.js';
import { demoTokenSeed, seedDemoHardwareTokens } from '../../demo/demo-tokens.js';
import { hotpCode, totpCode } from '../common/otp.js';
import { createSecretBox } from '../../lib/secret-box.js';

const KEY = Buffer.alloc(32, 0x5a);
const box = createSecretBox(KEY, 'ktest');
const pepper = derivePepper(KEY);
const T0 = new Date('2030-01-01T09:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const LOCKOUT = { maxFailures: 3, lockMinutes: 10 };
const ISSUER = 'MFA Portal Test';

let handle: DatabaseHandle;
let db: Kysely<Database>;
let mfa: MfaProvider;

async function addUser(username: string, status: 'active' | 'disabled' | 'locked_out' = 'active', statusReason: string | null = null) {
  const row = await db
    .insertInto('mfa_user')
    .values({ username, status, status_reason: statusReason })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function refusal(promise: Promise<unknown>): Promise<MfaErrorCode | 'resolved'> {
  try {
    await promise;
    return 'resolved';
  } catch (err) {
    if (err instanceof MfaError) return err.code;
    throw err;
  }
}

async function tokenCounter(serial: string): Promise<number> {
  return (await db.selectFrom('mfa_hardware_token').select('counter').where('serial', '=', serial).executeTakeFirstOrThrow()).counter;
}
const codesOf = (serial: string, from: number, n: number) => Array.from({ length: n }, (_, i) => hotpCode(demoTokenSeed(serial), from + i));

/** Enrols a confirmed authenticator for `user` at `when`; returns its secret and device id. */
async function enrolAuthenticator(user: string, when: Date, allow = false) {
  const e = await mfa.startTotpEnrolment(user, { allowWhenDevicesExist: allow, issuer: ISSUER, now: when });
  const device = await mfa.confirmTotpEnrolment(
    user,
    e.enrolmentId,
    { code: totpCode(e.secret, when), name: 'Phone app' },
    { allowWhenDevicesExist: allow, now: when },
  );
  return { secret: e.secret, device };
}

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
  mfa = createBuiltinProvider(db, { keys: { box, bypassPepper: pepper }, lockout: LOCKOUT });
  await seedDemoHardwareTokens(db, box);
});
afterAll(() => handle.close());

describe('builtin provider: accounts', () => {
  it('reports a user it does not know as not provisioned', async () => {
    expect(await mfa.getAccount('ghost@example.com')).toBeNull();
    expect((await mfa.getUserData('ghost@example.com')).status).toBe('not_provisioned');
    expect(await refusal(mfa.listDevices('ghost@example.com'))).toBe('not_provisioned');
    expect(await mfa.verifyPasscode('ghost@example.com', '123456')).toMatchObject({ ok: false, reason: 'not_provisioned' });
  });

  it('refuses changes and verifications for a disabled user', async () => {
    await addUser('off@example.com', 'disabled', 'Left the organisation');
    expect(await refusal(mfa.startTotpEnrolment('off@example.com', { allowWhenDevicesExist: true, issuer: ISSUER }))).toBe('user_disabled');
    expect(await mfa.verifyPasscode('off@example.com', '123456')).toMatchObject({
      ok: false,
      reason: 'user_disabled',
      statusReason: 'Left the organisation',
    });
  });
});

describe('builtin provider: authenticator apps (TOTP)', () => {
  beforeAll(async () => {
    await addUser('totp@example.com');
  });

  it('keeps a started enrolment out of the devices until a first valid code confirms it', async () => {
    const e = await mfa.startTotpEnrolment('TOTP@example.com', { allowWhenDevicesExist: false, issuer: ISSUER, now: T0 });
    expect(e.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(e.otpauthUri).toContain(`secret=${e.secret}`);
    expect(decodeURIComponent(e.otpauthUri)).toContain(`${ISSUER}:totp@example.com`);
    expect(e.qrSvg.trimStart()).toMatch(/^<svg/);
    expect(e.expiresAt).toEqual(at(600));
    expect(await mfa.listDevices('totp@example.com')).toEqual([]);
    // The secret is sealed at rest, bound to its row.
    const row = await db.selectFrom('mfa_totp_enrolment').selectAll().where('id', '=', e.enrolmentId).executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(e.secret);

    const wrong = totpCode(e.secret, at(-3600));
    expect(
      await refusal(
        mfa.confirmTotpEnrolment('totp@example.com', e.enrolmentId, { code: wrong, name: 'x' }, { allowWhenDevicesExist: false, now: T0 }),
      ),
    ).toBe('code_invalid');
    expect(await mfa.listDevices('totp@example.com')).toEqual([]);

    const device = await mfa.confirmTotpEnrolment(
      'totp@example.com',
      e.enrolmentId,
      { code: totpCode(e.secret, T0), name: 'Authenticator' },
      { allowWhenDevicesExist: false, now: T0 },
    );
    expect(device).toMatchObject({ kind: 'authenticator', name: 'Authenticator', capabilities: ['passcode'] });
    expect((await mfa.listDevices('totp@example.com')).map((d) => d.id)).toEqual([device.id]);
    // Confirmed enrolments are gone; the device's secret is sealed for the device row only.
    expect(await db.selectFrom('mfa_totp_enrolment').selectAll().where('id', '=', e.enrolmentId).execute()).toEqual([]);
    const stored = await db.selectFrom('mfa_device').selectAll().where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(box.open(stored.secret_sealed!, deviceSecretAad(device.id)).toString()).toBe(e.secret);
    expect(() => box.open(stored.secret_sealed!, enrolmentAad(e.enrolmentId))).toThrow();

    // The confirming code is used; the next step's code verifies once, then is a replay.
    expect(await mfa.verifyPasscode('totp@example.com', totpCode(e.secret, T0), { now: T0 })).toMatchObject({
      ok: false,
      reason: 'code_replayed',
    });
    expect(await mfa.verifyPasscode('totp@example.com', totpCode(e.secret, at(30)), { now: at(30) })).toMatchObject({
      ok: true,
      method: 'totp',
      deviceId: device.id,
    });
    expect(await mfa.verifyPasscode('totp@example.com', totpCode(e.secret, at(30)), { now: at(45) })).toMatchObject({
      ok: false,
      reason: 'code_replayed',
    });
    // An older step inside the window is refused too (steps only move forward).
    expect(await mfa.verifyPasscode('totp@example.com', totpCode(e.secret, at(30)), { now: at(60) })).toMatchObject({
      ok: false,
      reason: 'code_replayed',
    });
    expect(await mfa.verifyPasscode('totp@example.com', totpCode(e.secret, at(90)), { now: at(90) })).toMatchObject({ ok: true });
  });

  it('refuses an expired enrolment and one of another user', async () => {
    await addUser('other-totp@example.com');
    const e = await mfa.startTotpEnrolment('other-totp@example.com', { allowWhenDevicesExist: false, issuer: ISSUER, now: T0 });
    const code = totpCode(e.secret, at(600));
    expect(
      await refusal(
        mfa.confirmTotpEnrolment('totp@example.com', e.enrolmentId, { code, name: 'x' }, { allowWhenDevicesExist: true, now: at(599) }),
      ),
    ).toBe('enrolment_not_found');
    expect(
      await refusal(
        mfa.confirmTotpEnrolment(
          'other-totp@example.com',
          e.enrolmentId,
          { code, name: 'x' },
          { allowWhenDevicesExist: false, now: at(600) },
        ),
      ),
    ).toBe('enrolment_expired');
  });

  it('refuses a second device unless allowed (step-up), at start and at confirmation', async () => {
    await addUser('second@example.com');
    const first = await mfa.startTotpEnrolment('second@example.com', { allowWhenDevicesExist: false, issuer: ISSUER, now: T0 });
    const racing = await mfa.startTotpEnrolment('second@example.com', { allowWhenDevicesExist: false, issuer: ISSUER, now: T0 });
    await mfa.confirmTotpEnrolment(
      'second@example.com',
      first.enrolmentId,
      { code: totpCode(first.secret, T0), name: 'A' },
      { allowWhenDevicesExist: false, now: T0 },
    );
    expect(await refusal(mfa.startTotpEnrolment('second@example.com', { allowWhenDevicesExist: false, issuer: ISSUER, now: T0 }))).toBe(
      'has_devices',
    );
    // Started as a first device, but one exists by now: a step-up is needed to confirm it.
    const confirmRacing = () =>
      mfa.confirmTotpEnrolment(
        'second@example.com',
        racing.enrolmentId,
        { code: totpCode(racing.secret, T0), name: 'B' },
        { allowWhenDevicesExist: false, now: T0 },
      );
    expect(await refusal(confirmRacing())).toBe('has_devices');
    // Started after a step-up: confirmable later even without one.
    const allowed = await mfa.startTotpEnrolment('second@example.com', { allowWhenDevicesExist: true, issuer: ISSUER, now: T0 });
    await mfa.confirmTotpEnrolment(
      'second@example.com',
      allowed.enrolmentId,
      { code: totpCode(allowed.secret, at(240)), name: 'C' },
      { allowWhenDevicesExist: false, now: at(240) },
    );
    expect((await mfa.listDevices('second@example.com')).map((d) => d.name)).toEqual(['A', 'C']);
  });

  it(`keeps at most ${MAX_PENDING_ENROLMENTS} pending enrolments per user and drops expired ones`, async () => {
    const userId = await addUser('pending@example.com');
    for (let i = 0; i < MAX_PENDING_ENROLMENTS + 3; i += 1) {
      await mfa.startTotpEnrolment('pending@example.com', { allowWhenDevicesExist: false, issuer: ISSUER, now: at(i) });
    }
    const count = async () => (await db.selectFrom('mfa_totp_enrolment').select('id').where('user_id', '=', userId).execute()).length;
    expect(await count()).toBe(MAX_PENDING_ENROLMENTS);
    await mfa.startTotpEnrolment('pending@example.com', { allowWhenDevicesExist: false, issuer: ISSUER, now: at(3600) });
    expect(await count()).toBe(1);
  });
});

function enrolmentAad(id: string) {
  return `mfa_totp_enrolment:${id}`;
}

describe('builtin provider: Duo D100 hardware tokens (HOTP)', () => {
  beforeAll(async () => {
    await addUser('hw1@example.com');
    await addUser('hw2@example.com');
  });

  it('seeds the demo inventory once, seeds sealed', async () => {
    await seedDemoHardwareTokens(db, box);
    const tokens = await db.selectFrom('mfa_hardware_token').selectAll().orderBy('serial').execute();
    expect(tokens.map((t) => t.serial)).toEqual([
      'D100-0001',
      'D100-0002',
      'D100-0003',
      'D100-0004',
      'D100-0005',
      'D100-0006',
      'D100-0007',
      'D100-0016',
    ]);
    for (const t of tokens) {
      expect(t.seed_sealed).not.toContain(demoTokenSeed(t.serial).toString('hex'));
      expect(t).toMatchObject({ status: 'available', counter: 0, token_type: 'Duo D100' });
    }
  });

  it('lets a user claim a token by serial and two consecutive codes, never a second user', async () => {
    const snapshot = await db.selectFrom('mfa_hardware_token').selectAll().where('serial', '=', 'D100-0002').executeTakeFirstOrThrow();
    const claim = (user: string, codes: string[], serial = 'D100-0002') =>
      mfa.claimHardwareToken(user, { serial, codes }, { allowWhenDevicesExist: false, now: T0 });
    expect(await refusal(claim('hw1@example.com', ['000000', '000001']))).toBe('code_invalid');
    // Two codes, but not consecutive.
    expect(await refusal(claim('hw1@example.com', [codesOf('D100-0002', 3, 1)[0]!, codesOf('D100-0002', 5, 1)[0]!]))).toBe('code_invalid');
    expect(await refusal(claim('hw1@example.com', codesOf('D100-0002', 0, 2), 'D100-9999'))).toBe('token_not_found');
    expect(await db.selectFrom('mfa_hardware_token').selectAll().where('serial', '=', 'D100-0002').executeTakeFirstOrThrow()).toEqual(
      snapshot,
    );

    // The token was pressed 5 times before: the codes at counters 5 and 6 prove possession; serial case does not matter.
    const device = await claim('hw1@example.com', codesOf('D100-0002', 5, 2), 'd100-0002');
    expect(device).toMatchObject({
      kind: 'hardware_token',
      serial: 'D100-0002',
      tokenType: 'Duo D100',
      name: 'Duo D100 (D100-0002)',
      capabilities: ['passcode'],
    });
    expect(await tokenCounter('D100-0002')).toBe(7);
    expect(
      await db.selectFrom('mfa_hardware_token').select(['status', 'user_id']).where('serial', '=', 'D100-0002').executeTakeFirstOrThrow(),
    ).toMatchObject({ status: 'assigned' });
    expect(await refusal(claim('hw2@example.com', codesOf('D100-0002', 7, 2)))).toBe('token_not_available');
    expect(await refusal(claim('hw1@example.com', codesOf('D100-0002', 7, 2)))).toBe('has_devices');
  });

  it('accepts each code once and never moves the counter back', async () => {
    const [c7, c8] = codesOf('D100-0002', 7, 2);
    expect(await mfa.verifyPasscode('hw1@example.com', c7!, { now: T0 })).toMatchObject({ ok: true, method: 'hotp' });
    expect(await mfa.verifyPasscode('hw1@example.com', c7!, { now: T0 })).toMatchObject({ ok: false, reason: 'code_invalid' });
    // A code of another user's token is not this user's.
    expect(await mfa.verifyPasscode('hw2@example.com', c8!, { now: T0 })).toMatchObject({ ok: false });
    expect(await mfa.verifyPasscode('hw1@example.com', c8!, { now: T0 })).toMatchObject({ ok: true });
    expect(await tokenCounter('D100-0002')).toBe(9);
    // Even a direct write cannot move it back.
    await expect(sql`update mfa_hardware_token set counter = 3 where serial = 'D100-0002'`.execute(db)).rejects.toThrow(/never goes back/);
    expect(await tokenCounter('D100-0002')).toBe(9);
  });

  it('resynchronises with three consecutive codes far ahead, never behind', async () => {
    const [device] = await mfa.listDevices('hw1@example.com');
    expect(await refusal(mfa.resyncHardwareToken('hw1@example.com', device!.id, codesOf('D100-0002', 2, 3), { now: T0 }))).toBe(
      'code_invalid',
    );
    expect(
      await refusal(
        mfa.resyncHardwareToken('hw1@example.com', device!.id, codesOf('D100-0002', 500, 2).concat(codesOf('D100-0002', 503, 1)), {
          now: T0,
        }),
      ),
    ).toBe('code_invalid');
    expect(await refusal(mfa.resyncHardwareToken('hw2@example.com', device!.id, codesOf('D100-0002', 500, 3), { now: T0 }))).toBe(
      'device_not_found',
    );
    await mfa.resyncHardwareToken('hw1@example.com', device!.id, codesOf('D100-0002', 500, 3), { now: T0 });
    expect(await tokenCounter('D100-0002')).toBe(503);
    expect(await mfa.verifyPasscode('hw1@example.com', codesOf('D100-0002', 501, 1)[0]!, { now: T0 })).toMatchObject({ ok: false });
    expect(await mfa.verifyPasscode('hw1@example.com', codesOf('D100-0002', 503, 1)[0]!, { now: T0 })).toMatchObject({ ok: true });
  });

  it('returns a released token to the inventory with its counter, so old codes stay used', async () => {
    const [device] = await mfa.listDevices('hw1@example.com');
    expect(await refusal(mfa.releaseHardwareToken('hw1@example.com', device!.id, { allowLast: false }))).toBe('last_device');
    await mfa.releaseHardwareToken('hw1@example.com', device!.id, { allowLast: true });
    expect(await mfa.listDevices('hw1@example.com')).toEqual([]);
    expect(
      await db
        .selectFrom('mfa_hardware_token')
        .select(['status', 'user_id', 'counter'])
        .where('serial', '=', 'D100-0002')
        .executeTakeFirstOrThrow(),
    ).toEqual({
      status: 'available',
      user_id: null,
      counter: 504,
    });
    const claim = (codes: string[]) =>
      mfa.claimHardwareToken('hw2@example.com', { serial: 'D100-0002', codes }, { allowWhenDevicesExist: false, now: T0 });
    expect(await refusal(claim(codesOf('D100-0002', 502, 2)))).toBe('code_invalid');
    expect(await claim(codesOf('D100-0002', 504, 2))).toMatchObject({ serial: 'D100-0002' });
  });

  it('links the demo staff device of a demo serial to the inventory token', async () => {
    const userId = await addUser('holder@example.com');
    await db
      .insertInto('mfa_device')
      .values({
        user_id: userId,
        kind: 'hardware_token',
        name: 'Token',
        capabilities: ['passcode'],
        serial: 'D100-0006',
        token_type: 'Duo D100',
      })
      .execute();
    await seedDemoHardwareTokens(db, box);
    expect(await mfa.verifyPasscode('holder@example.com', codesOf('D100-0006', 0, 1)[0]!, { now: T0 })).toMatchObject({
      ok: true,
      method: 'hotp',
    });
  });
});

describe('builtin provider: bypass codes', () => {
  const request = { count: 3, validitySeconds: 3600, reuseCount: 1, replaceExisting: false, createdBy: 'helpdesk@example.com' };
  beforeAll(async () => {
    await addUser('bp@example.com');
    await addUser('bp-other@example.com');
  });
  beforeEach(async () => {
    await db.updateTable('mfa_bypass_code').set({ revoked_at: T0 }).where('revoked_at', 'is', null).execute();
    // Failed checks below count toward the lockout (3 here): start each test unlocked.
    await db
      .updateTable('mfa_user')
      .set({ status: 'active', status_reason: null, failed_attempts: 0, locked_until: null })
      .where('username', 'like', 'bp%')
      .execute();
  });

  it.each([
    [{ count: 0 }, 'count', 'bypass.count_out_of_range'],
    [{ count: 11 }, 'count', 'bypass.count_out_of_range'],
    [{ validitySeconds: 0 }, 'validitySeconds', 'bypass.validity_too_short'],
    [{ validitySeconds: 59 }, 'validitySeconds', 'bypass.validity_too_short'],
    [{ validitySeconds: 604_801 }, 'validitySeconds', 'bypass.validity_too_long'],
    [{ validitySeconds: Number.POSITIVE_INFINITY }, 'validitySeconds', 'bypass.validity_too_long'],
    [{ reuseCount: 0 }, 'reuseCount', 'bypass.reuse_out_of_range'],
    [{ reuseCount: 11 }, 'reuseCount', 'bypass.reuse_out_of_range'],
  ])('refuses %o (%s) and creates nothing', async (change, field, reason) => {
    const before = await db.selectFrom('mfa_bypass_code').select('id').execute();
    const err = await mfa.createBypassCodes('bp@example.com', { ...request, ...change }, { now: T0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MfaError);
    expect(err).toMatchObject({ code: 'bypass_invalid_request', details: { field, reason } });
    expect(await db.selectFrom('mfa_bypass_code').select('id').execute()).toEqual(before);
  });

  it('creates codes shown once and stores only keyed hashes, listed as metadata', async () => {
    const created = await mfa.createBypassCodes('bp@example.com', { ...request, reuseCount: 2 }, { now: T0 });
    expect(created.codes).toHaveLength(3);
    for (const c of created.codes) expect(c.code).toMatch(/^[0-9]{3} [0-9]{3} [0-9]{3}$/);
    const rows = await db
      .selectFrom('mfa_bypass_code')
      .selectAll()
      .where(
        'id',
        'in',
        created.codes.map((c) => c.id),
      )
      .execute();
    for (const c of created.codes) {
      const row = rows.find((r) => r.id === c.id)!;
      expect(row.code_hash).toBe(hashBypassCode(c.code, pepper));
      expect(JSON.stringify(row)).not.toContain(c.code.replaceAll(' ', ''));
    }
    const listed = await mfa.listBypassCodes('bp@example.com', { now: T0 });
    expect(listed.map((c) => c.id).sort()).toEqual(created.codes.map((c) => c.id).sort());
    expect(listed[0]).toEqual({
      id: expect.any(String),
      createdAt: T0.toISOString(),
      expiresAt: at(3600).toISOString(),
      usesLeft: 2,
      reuseCount: 2,
      createdBy: 'helpdesk@example.com',
    });
    expect(JSON.stringify(listed)).not.toMatch(/[0-9]{3} [0-9]{3} [0-9]{3}/);
  });

  it('accepts a code as many times as its reuse count, for its owner only, until it expires', async () => {
    const { codes } = await mfa.createBypassCodes(
      'bp@example.com',
      { ...request, count: 2, reuseCount: 2, validitySeconds: 60 },
      { now: T0 },
    );
    const [a, b] = codes;
    expect(await mfa.verifyPasscode('bp-other@example.com', a!.code, { now: T0 })).toMatchObject({ ok: false, reason: 'code_invalid' });
    expect(await mfa.verifyPasscode('bp@example.com', a!.code.replaceAll(' ', '-'), { now: T0 })).toMatchObject({
      ok: true,
      method: 'bypass',
      bypassId: a!.id,
    });
    expect(await mfa.verifyPasscode('bp@example.com', a!.code, { now: at(10) })).toMatchObject({ ok: true });
    expect(await mfa.verifyPasscode('bp@example.com', a!.code, { now: at(20) })).toMatchObject({ ok: false, reason: 'code_invalid' });
    // Passcode-only checks never take a bypass code.
    expect(await mfa.verifyPasscode('bp@example.com', b!.code, { now: at(20), methods: ['passcode'] })).toMatchObject({ ok: false });
    expect(await mfa.verifyPasscode('bp@example.com', b!.code, { now: at(60) })).toMatchObject({ ok: false, reason: 'code_invalid' });
    expect((await mfa.listBypassCodes('bp@example.com', { now: at(60) })).map((c) => c.id)).not.toContain(b!.id);
  });

  it('revokes a code of its owner only', async () => {
    const { codes } = await mfa.createBypassCodes('bp@example.com', { ...request, count: 1 }, { now: T0 });
    const id = codes[0]!.id;
    expect(await refusal(mfa.revokeBypassCode('bp-other@example.com', id, { now: T0 }))).toBe('bypass_not_found');
    expect(await mfa.revokeBypassCode('bp@example.com', id, { now: T0 })).toMatchObject({ id });
    expect(await refusal(mfa.revokeBypassCode('bp@example.com', id, { now: T0 }))).toBe('bypass_not_found');
    expect(await mfa.verifyPasscode('bp@example.com', codes[0]!.code, { now: T0 })).toMatchObject({ ok: false });
  });

  it('keeps existing codes unless asked to replace them, and at most 100 live codes', async () => {
    await mfa.createBypassCodes('bp@example.com', { ...request, count: 10 }, { now: T0 });
    await mfa.createBypassCodes('bp@example.com', { ...request, count: 5 }, { now: T0 });
    expect(await mfa.listBypassCodes('bp@example.com', { now: T0 })).toHaveLength(15);
    const replaced = await mfa.createBypassCodes('bp@example.com', { ...request, count: 2, replaceExisting: true }, { now: T0 });
    expect(replaced.replaced).toBe(15);
    expect((await mfa.listBypassCodes('bp@example.com', { now: T0 })).map((c) => c.id).sort()).toEqual(
      replaced.codes.map((c) => c.id).sort(),
    );

    for (let i = 0; i < 9; i += 1) await mfa.createBypassCodes('bp@example.com', { ...request, count: 10 }, { now: T0 });
    expect(await mfa.listBypassCodes('bp@example.com', { now: T0 })).toHaveLength(92);
    expect(await refusal(mfa.createBypassCodes('bp@example.com', { ...request, count: 9 }, { now: T0 }))).toBe('too_many_live_codes');
    await mfa.createBypassCodes('bp@example.com', { ...request, count: 8 }, { now: T0 });
    expect(await refusal(mfa.createBypassCodes('bp@example.com', { ...request, count: 1 }, { now: T0 }))).toBe('too_many_live_codes');
    // Expired codes are not live.
    expect(await mfa.createBypassCodes('bp@example.com', { ...request, count: 1 }, { now: at(3600) })).toMatchObject({ replaced: 0 });
  });
});

describe('builtin provider: lockout after repeated failures', () => {
  let secret: string;
  beforeAll(async () => {
    await addUser('lock@example.com');
    ({ secret } = await enrolAuthenticator('lock@example.com', T0));
  });

  it('locks on the third failure with a reason, refuses even a right code meanwhile, and lifts at the end', async () => {
    expect(await mfa.verifyPasscode('lock@example.com', '000000', { now: at(30) })).toMatchObject({
      ok: false,
      reason: 'code_invalid',
      justLocked: false,
    });
    expect(await mfa.verifyPasscode('lock@example.com', '111111', { now: at(30) })).toMatchObject({ ok: false, justLocked: false });
    expect(await mfa.verifyPasscode('lock@example.com', '222222', { now: at(30) })).toEqual({
      ok: false,
      reason: 'code_invalid',
      justLocked: true,
      retryAfterSeconds: 600,
      statusReason: LOCKOUT_STATUS_REASON,
    });
    expect(await mfa.getUserData('lock@example.com', at(31))).toMatchObject({ status: 'locked_out', statusReason: LOCKOUT_STATUS_REASON });
    expect(await mfa.getAccount('lock@example.com', at(31))).toMatchObject({ status: 'locked_out', lockedUntil: at(630) });
    expect(await mfa.verifyPasscode('lock@example.com', totpCode(secret, at(60)), { now: at(60) })).toMatchObject({
      ok: false,
      reason: 'user_locked_out',
      retryAfterSeconds: 570,
    });
    expect(
      await refusal(
        mfa.createBypassCodes(
          'lock@example.com',
          { count: 1, validitySeconds: 60, reuseCount: 1, replaceExisting: false, createdBy: 'x' },
          { now: at(60) },
        ),
      ),
    ).toBe('user_locked_out');
    // The refused right code was not used up: it still works once the lock has ended.
    expect(await mfa.getUserData('lock@example.com', at(630))).toMatchObject({ status: 'active', statusReason: null });
    expect(await mfa.verifyPasscode('lock@example.com', totpCode(secret, at(630)), { now: at(630) })).toMatchObject({ ok: true });
    const row = await db.selectFrom('mfa_user').selectAll().where('username', '=', 'lock@example.com').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'active', status_reason: null, failed_attempts: 0, locked_until: null });
  });

  it('clears the failures on success (failures must be consecutive)', async () => {
    await mfa.verifyPasscode('lock@example.com', '000000', { now: at(700) });
    await mfa.verifyPasscode('lock@example.com', '000001', { now: at(700) });
    expect(await mfa.verifyPasscode('lock@example.com', totpCode(secret, at(720)), { now: at(720) })).toMatchObject({ ok: true });
    expect(await mfa.verifyPasscode('lock@example.com', '000002', { now: at(730) })).toMatchObject({ justLocked: false });
    expect(await mfa.verifyPasscode('lock@example.com', '000003', { now: at(730) })).toMatchObject({ justLocked: false });
  });

  it('keeps an administrative lock (no end) and does not count "no factor" as a failure', async () => {
    await addUser('admin-lock@example.com', 'locked_out', 'Reported lost phone');
    expect(await mfa.verifyPasscode('admin-lock@example.com', '123456', { now: at(99_999) })).toMatchObject({
      ok: false,
      reason: 'user_locked_out',
      retryAfterSeconds: null,
      statusReason: 'Reported lost phone',
    });
    expect(await mfa.getUserData('admin-lock@example.com', at(99_999))).toMatchObject({ status: 'locked_out' });
    await addUser('nofactor@example.com');
    for (let i = 0; i < 5; i += 1)
      expect(await mfa.verifyPasscode('nofactor@example.com', '123456', { now: T0 })).toMatchObject({ ok: false, reason: 'no_factor' });
    expect(await mfa.getAccount('nofactor@example.com', T0)).toMatchObject({ status: 'active' });
  });
});

describe('builtin provider: devices', () => {
  it('renames and deletes only the owner’s devices, and guards the last one', async () => {
    await addUser('dev@example.com');
    await addUser('dev-other@example.com');
    const { device: a } = await enrolAuthenticator('dev@example.com', T0);
    const { device: b } = await enrolAuthenticator('dev@example.com', T0, true);
    expect(await refusal(mfa.renameDevice('dev-other@example.com', a.id, 'Mine now'))).toBe('device_not_found');
    expect(await refusal(mfa.deleteDevice('dev-other@example.com', a.id, { allowLast: true }))).toBe('device_not_found');
    expect(await mfa.renameDevice('dev@example.com', a.id, 'Work phone')).toMatchObject({ id: a.id, name: 'Work phone' });
    await mfa.deleteDevice('dev@example.com', a.id, { allowLast: false });
    expect(await refusal(mfa.deleteDevice('dev@example.com', b.id, { allowLast: false }))).toBe('last_device');
    expect(await refusal(mfa.releaseHardwareToken('dev@example.com', b.id, { allowLast: true }))).toBe('not_hardware_token');
    await mfa.deleteDevice('dev@example.com', b.id, { allowLast: true });
    expect(await mfa.listDevices('dev@example.com')).toEqual([]);
  });

  it('checks a code against one device only when asked, and refuses devices without passcodes', async () => {
    const userId = await addUser('multi@example.com');
    const { secret, device } = await enrolAuthenticator('multi@example.com', T0);
    const phone = await db
      .insertInto('mfa_device')
      .values({ user_id: userId, kind: 'phone', name: 'Phone', capabilities: ['push', 'passcode'], phone_number: '+15555550100' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await refusal(mfa.verifyPasscode('multi@example.com', totpCode(secret, at(30)), { now: at(30), deviceId: phone.id }))).toBe(
      'verification_unsupported',
    );
    expect(
      await refusal(
        mfa.verifyPasscode('multi@example.com', totpCode(secret, at(30)), {
          now: at(30),
          deviceId: '00000000-0000-4000-8000-000000000000',
        }),
      ),
    ).toBe('device_not_found');
    expect(await mfa.verifyPasscode('multi@example.com', totpCode(secret, at(30)), { now: at(30), deviceId: device.id })).toMatchObject({
      ok: true,
      deviceId: device.id,
    });
  });
});
