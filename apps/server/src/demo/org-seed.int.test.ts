import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.js';
import type { DatabaseHandle } from '../db/database.js';
import { verifyPassword } from '../idp/password.js';
import { deviceSecretAad, tokenSeedAad } from '../mfa/builtin/builtin-provider.js';
import { verifyBuiltinPasscode } from '../mfa/builtin/verify-passcode.js';
import { totpCode } from '../mfa/common/otp.js';
import { createSecretBox } from '../lib/secret-box.js';
import { createAuditService } from '../modules/audit/audit.service.js';
import { ORG_DOMAIN } from './org-data.js';
import { seedOrganisation } from './org-seed.js';

const box = createSecretBox(randomBytes(32), 'ktest');
const count = async (database: DatabaseHandle, table: 'mfa_user' | 'idp_account' | 'directory_user' | 'audit_event' | 'mfa_device') =>
  Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('seedOrganisation (npm run seed:org)', () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedOrganisation(database.db, { users: 300, events: 1200, password: 'org-password', box, userBatch: 128, eventBatch: 500 });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('adds the staff to the identity provider, the directory and the MFA store, all with the shared password', async () => {
    expect(await count(database, 'mfa_user')).toBe(300);
    expect(await count(database, 'idp_account')).toBe(300);
    expect(await count(database, 'directory_user')).toBe(300);
    const account = await database.db.selectFrom('idp_account').selectAll().limit(1).executeTakeFirstOrThrow();
    expect(account.username.endsWith(`@${ORG_DOMAIN}`)).toBe(true);
    expect(await verifyPassword('org-password', account.password_hash)).toBe(true);
  });

  it('gives a realistic mix: phones, authenticator apps, assigned tokens, bypass codes, several statuses, a few administrators', async () => {
    const kinds = await database.db.selectFrom('mfa_device').select(['kind']).distinct().execute();
    expect(kinds.map((k) => k.kind).sort()).toEqual(['authenticator', 'hardware_token', 'phone']);
    const statuses = await database.db.selectFrom('mfa_user').select('status').distinct().execute();
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    const tokens = await database.db.selectFrom('mfa_hardware_token').selectAll().execute();
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.every((t) => t.status === 'assigned' && t.user_id)).toBe(true);
    // Sealed with the provider's key and binding, so the store can open them.
    expect(box.open(tokens[0]!.seed_sealed, tokenSeedAad(tokens[0]!.id))).toHaveLength(20);
    // An authenticator app's secret is Base32 text (20 bytes), and the provider's passcode check accepts its code.
    const app = await database.db
      .selectFrom('mfa_device as d')
      .innerJoin('mfa_user as u', 'u.id', 'd.user_id')
      .select(['u.username', 'd.id', 'd.secret_sealed'])
      .where('d.kind', '=', 'authenticator')
      .where('u.status', '=', 'active')
      .limit(1)
      .executeTakeFirstOrThrow();
    const secret = box.open(app.secret_sealed!, deviceSecretAad(app.id)).toString('utf8');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const deps = { keys: { box, bypassPepper: randomBytes(32) }, policy: { maxFailures: 5, lockMinutes: 15 } };
    const now = new Date();
    const outcome = await verifyBuiltinPasscode(database.db, deps, app.username, totpCode(secret, now), { now });
    expect(outcome).toMatchObject({ ok: true, method: 'totp', deviceId: app.id });
    const surnames = await database.db.selectFrom('idp_account').select('family_name').execute();
    const frequency = new Map<string, number>();
    for (const s of surnames) frequency.set(s.family_name, (frequency.get(s.family_name) ?? 0) + 1);
    // Common surnames repeat; rare ones appear once.
    expect(Math.max(...frequency.values())).toBeGreaterThan(5);
    expect([...frequency.values()].filter((n) => n === 1).length).toBeGreaterThan(10);
  });

  it('writes audit events on a valid hash chain, and a few users make many of them', async () => {
    expect(await count(database, 'audit_event')).toBe(1200);
    expect(await createAuditService(database.db).verify()).toMatchObject({ ok: true, count: 1200 });
    // A fifth of all events go to 20 very active users, plus their share of the rest: about 300 of 1,200
    // (± 16). An even spread would give the 20 busiest about 160. Summed over the 20, chance cannot flip it.
    const top = await database.db
      .selectFrom('audit_event')
      .select((eb) => ['target_upn', eb.fn.countAll<number>().as('n')])
      .groupBy('target_upn')
      .orderBy('n', 'desc')
      .limit(20)
      .execute();
    const busiest = top.reduce((sum, row) => sum + Number(row.n), 0);
    expect(busiest).toBeGreaterThan(1200 * 0.2);
  });

  it('grows the data set when run again: new users, and the chain continues from the stored head', async () => {
    await seedOrganisation(database.db, { users: 50, events: 300, password: 'org-password', box });
    expect(await count(database, 'mfa_user')).toBe(350);
    expect(await count(database, 'audit_event')).toBe(1500);
    expect(await createAuditService(database.db).verify()).toMatchObject({ ok: true, count: 1500 });
    // The audit service appends after the seeded events on the same chain.
    await createAuditService(database.db).append({ actor: null, target: null, action: 'test.after_seed', outcome: 'success' });
    expect(await createAuditService(database.db).verify()).toMatchObject({ ok: true, count: 1501 });
  });
});
