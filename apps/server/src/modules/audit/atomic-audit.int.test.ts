import { sql, type Kysely } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.js';
import { auditFaultsForTests } from './audit.service.js';
import { addUser, demoTokenCodes, errorOf, meTestApp, type MeTestApp } from '../../../test/me-api.js';
import { ADMIN, callAs, deviceIdOf, JUSTIFY } from '../../../test/admin-api.js';
import { SCIM_TOKEN, entraUser, patchOp } from '../../../test/scim-api.js';

/**
 * Atomic change + audit: for each kind of change, the audit append is made to fail (a
 * test-only fault) and nothing may have changed: every table but the audit log (and the verification
 * budgets, spent before any change on purpose) is the same before and after, and the answer is a 500 in
 * the error shape. The failure itself is audited after the rollback.
 */

/** Every table the portal writes, as sorted JSON rows (the audit log and the rate-limit buckets aside). */
async function snapshot(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
      -- The audit trail and rate limits change on purpose; the day's report snapshot is taken by a job
      -- at start-up, which a busy machine may run while a test is under way.
      and table_name not in ('audit_event', 'audit_head', 'rate_limit_bucket', 'report_snapshot')
      and table_name not like 'kysely_%'
    order by table_name`.execute(db);
  const out: Record<string, string[]> = {};
  for (const { table_name } of rows) {
    const data = await sql<{ r: string }>`select row_to_json(t)::text as r from ${sql.table(table_name)} t order by 1`.execute(db);
    out[table_name] = data.rows.map((x) => x.r);
  }
  return out;
}

/** Changes written with their own transaction (not through audited()): an unexpected failure is logged, not audited. */
const NOT_AUDITED_ON_FAILURE = { failureAudited: false };

let m: MeTestApp;
const USER = 'atomic@example.com';

const bearer = async (upn: string, roles: string[] = []) => ({ authorization: `Bearer ${await m.token(upn, roles)}` });
const me = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) => m.call(USER, method, path, payload);
const scim = (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
  m.t.app.inject({
    method,
    url: `/scim/v2${path}`,
    headers: { authorization: `Bearer ${SCIM_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

async function stepUp() {
  const [code] = await demoTokenCodes(m.db, 'D100-0002', 1);
  const res = await me('POST', '/step-up', { method: 'passcode', code });
  expect(res.statusCode, res.body).toBe(200);
}

/** Makes the success event of `action` fail to append, runs `run`, and checks that nothing changed. */
async function expectAtomic(
  action: string,
  run: () => Promise<LightMyRequestResponse>,
  opts: { scim?: boolean; failureAudited?: boolean } = {},
) {
  const before = await snapshot(m.db);
  auditFaultsForTests.beforeAppend = (entry) => {
    if (entry.action === action && entry.outcome === 'success') throw new Error('injected audit fault');
  };
  const res = await run();
  auditFaultsForTests.beforeAppend = null;
  expect(res.statusCode, res.body).toBe(500);
  if (!opts.scim) expect(errorOf(res).code).toBe('server.internal');
  expect(await snapshot(m.db)).toEqual(before);
  if (!opts.scim && opts.failureAudited !== false) {
    const failures = await m.db
      .selectFrom('audit_event')
      .select(['reason'])
      .where('action', '=', action)
      .where('outcome', '=', 'failure')
      .orderBy('id', 'desc')
      .execute();
    expect(failures[0]?.reason).toBe('server.internal');
  }
}

beforeAll(async () => {
  m = await meTestApp({ SCIM_TOKEN, MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '10000' });
  await addUser(m.db, USER);
  // The user holds a hardware token (their step-up factor) and has a step-up where one is needed.
  const codes = await demoTokenCodes(m.db, 'D100-0002', 2);
  const claimed = await me('POST', '/devices/hardware-token', { serial: 'D100-0002', codes, name: 'Token' });
  expect(claimed.statusCode, claimed.body).toBe(201);
});
afterEach(() => {
  auditFaultsForTests.beforeAppend = null;
});
afterAll(() => m.close());

describe('a change whose audit event cannot be written is not made (self-service)', () => {
  it('renaming a device', async () => {
    const id = await deviceIdOf(m.db, USER);
    await expectAtomic('device.rename', () => me('PATCH', `/devices/${id}`, { name: 'Renamed' }));
  });

  it('stepping up (the code is not used up, no step-up is recorded)', async () => {
    const [code] = await demoTokenCodes(m.db, 'D100-0002', 1);
    // An unexpected failure of a verification is logged, not audited as a refusal.
    await expectAtomic('mfa.verify', () => me('POST', '/step-up', { method: 'passcode', code }), { failureAudited: false });
  });

  it('starting an authenticator enrolment', async () => {
    await stepUp();
    await expectAtomic('device.enrol_start', () => me('POST', '/devices/authenticator'));
  });

  it('claiming a hardware token', async () => {
    await stepUp();
    const codes = await demoTokenCodes(m.db, 'D100-0003', 2);
    await expectAtomic('device.claim_token', () => me('POST', '/devices/hardware-token', { serial: 'D100-0003', codes }));
  });

  it('creating bypass codes', async () => {
    await stepUp();
    await expectAtomic('bypass.create', () => me('POST', '/bypass-codes', { count: 2, validitySeconds: 3600 }));
  });

  it('removing a device', async () => {
    await stepUp();
    const id = await deviceIdOf(m.db, USER);
    await expectAtomic('device.delete', () => me('DELETE', `/devices/${id}?confirmLastDevice=true`));
  });

  it('starting a passkey registration', async () => {
    await stepUp();
    await expectAtomic('device.webauthn_register_start', () => me('POST', '/webauthn/registration'));
  });

  it('signing out', async () => {
    await expectAtomic('session.sign_out', () => me('POST', '/sign-out'));
  });
});

describe('a change whose audit event cannot be written is not made (administration)', () => {
  const admin = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => callAs(m, ADMIN, method, url, payload);

  it('issuing bypass codes for a user', async () => {
    await expectAtomic('admin.user.create_bypass_codes', () =>
      admin('POST', `/api/admin/users/${USER}/bypass-codes`, { count: 1, validitySeconds: 3600, reuseCount: 1, ...JUSTIFY }),
    );
  });

  it("revoking a user's bypass codes", async () => {
    const issued = await admin('POST', `/api/admin/users/${USER}/bypass-codes`, {
      count: 1,
      validitySeconds: 3600,
      reuseCount: 1,
      ...JUSTIFY,
    });
    expect(issued.statusCode, issued.body).toBe(201);
    await expectAtomic('admin.user.revoke_bypass_codes', () => admin('POST', `/api/admin/users/${USER}/bypass-codes/revoke`, JUSTIFY));
  });

  it("removing a user's device, and the lost-device wizard's removal", async () => {
    const id = await deviceIdOf(m.db, USER);
    await expectAtomic('admin.user.delete_device', () =>
      admin('DELETE', `/api/admin/users/${USER}/devices/${id}`, { ...JUSTIFY, confirmLastDevice: true }),
    );
    await expectAtomic('admin.user.lost_device.remove_device', () =>
      admin('POST', `/api/admin/users/${USER}/lost-device`, { deviceId: id, confirmLastDevice: true, validitySeconds: 3600, ...JUSTIFY }),
    );
  });

  it('disabling an account (and revoking its sessions)', async () => {
    await expectAtomic('admin.user.disable', () => admin('POST', `/api/admin/users/${USER}/disable`, JUSTIFY), NOT_AUDITED_ON_FAILURE);
  });

  it('signing a user out everywhere', async () => {
    await expectAtomic('admin.user.sign_out_everywhere', () => admin('POST', `/api/admin/users/${USER}/sign-out-everywhere`, JUSTIFY));
  });

  it('issuing an enrolment pass, and redeeming one', async () => {
    const body = { reason: 'New starter', uses: 1, lifetimeMinutes: 60 };
    await expectAtomic(
      'admin.user.issue_enrolment_pass',
      () => admin('POST', `/api/admin/users/${USER}/enrolment-passes`, body),
      NOT_AUDITED_ON_FAILURE,
    );
    const issued = await admin('POST', `/api/admin/users/${USER}/enrolment-passes`, body);
    expect(issued.statusCode, issued.body).toBe(201);
    const pass = (issued.json() as { pass: string }).pass;
    await expectAtomic('enrolment_pass.redeem', () => me('POST', '/enrolment-pass', { pass }), NOT_AUDITED_ON_FAILURE);
  });

  it('retiring a hardware token from the inventory', async () => {
    const { serial } = await m.db
      .selectFrom('mfa_hardware_token')
      .select('serial')
      .where('status', '=', 'available')
      .orderBy('serial')
      .executeTakeFirstOrThrow();
    await expectAtomic('admin.inventory.retire', () => admin('POST', `/api/admin/tokens/${serial}/retire`, JUSTIFY));
  });

  it('creating a SCIM token', async () => {
    await expectAtomic(
      'admin.scim_token.create',
      () => admin('POST', '/api/admin/scim-tokens', { name: 'atomic-test' }),
      NOT_AUDITED_ON_FAILURE,
    );
  });

  it('changing the passkey policy', async () => {
    await expectAtomic(
      'admin.webauthn_policy.update',
      () => admin('PUT', '/api/admin/webauthn/policy', { aaguidAllowList: [], requirePhishingResistantForProtected: true }),
      NOT_AUDITED_ON_FAILURE,
    );
  });
});

describe('a change whose audit event cannot be written is not made (SCIM provisioning)', () => {
  it('creating, deactivating and deleting a user', async () => {
    await expectAtomic('scim.user.create', () => scim('POST', '/Users', entraUser('scim-atomic@example.com')), { scim: true });
    const created = await scim('POST', '/Users', entraUser('scim-atomic@example.com'));
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    const token = await bearer('scim-atomic@example.com');
    const deactivate = patchOp({ op: 'replace', path: 'active', value: false });
    await expectAtomic('scim.user.deactivate', () => scim('PATCH', `/Users/${id}`, deactivate), { scim: true });
    // Nothing was revoked either: the user's token is still accepted.
    expect((await m.t.app.inject({ method: 'GET', url: '/api/me/capabilities', headers: token })).statusCode).not.toBe(401);
    await expectAtomic('scim.user.delete', () => scim('DELETE', `/Users/${id}`), { scim: true });
  });
});
