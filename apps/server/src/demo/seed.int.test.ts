import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.js';
import type { DatabaseHandle } from '../db/database.js';
import { verifyPassword } from '../idp/password.js';
import { seedDemoStaff } from './seed.js';

describe('seedDemoStaff', () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDemoStaff(database.db, { password: 'first-password' });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('creates the demo accounts of the identity provider with the given password', async () => {
    const accounts = await database.db.selectFrom('idp_account').selectAll().orderBy('username').execute();
    expect(accounts.map((a) => [a.username, a.email, a.given_name, a.family_name, a.roles])).toEqual([
      ['admin@example.com', 'admin@example.com', 'Ada', 'Admin', ['Solution Administrator']],
      ['alice@example.com', 'alice@example.com', 'Alice', 'Anders', []],
      ['bob@example.com', 'bob@example.com', 'Bob', 'Brown', []],
      ['carol@example.com', 'carol@example.com', 'Carol', 'Clark', []],
      ['dave@example.com', 'dave@example.com', 'Dave', 'Dunn', []],
      ['disabled@example.com', 'disabled@example.com', 'Dan', 'Disabled', []],
      ['erin@example.com', 'erin@example.com', 'Erin', 'Ellis', []],
      ['frank@example.com', 'frank@example.com', 'Frank', 'Fisher', []],
      ['grace@example.com', 'grace@example.com', 'Grace', 'Green', []],
      ['helpdesk@example.com', 'helpdesk@example.com', 'Hana', 'Helpdesk', ['Helpdesk Administrator']],
      ['ivan@example.com', 'ivan@example.com', 'Ivan', 'Ives', []],
      ['judy@example.com', 'judy@example.com', 'Judy', 'Jones', []],
      ['kim@example.com', 'kim@example.com', 'Kim', 'King', []],
      ['lena@example.com', 'lena@example.com', 'Lena', 'Lund', []],
      ['mia@example.com', 'mia@example.com', 'Mia', 'Moreau', []],
      ['noah@example.com', 'noah@example.com', 'Noah', 'Nash', []],
      ['nomfa@example.com', 'nomfa@example.com', 'Nora', 'Nomfa', []],
      ['olga@example.com', 'olga@example.com', 'Olga', 'Olsen', []],
      ['paul@example.com', 'paul@example.com', 'Paul', 'Parker', []],
      ['sam@example.com', 'sam@example.com', 'Sam', 'Stone', ['Helpdesk Administrator']],
      ['tina@example.com', 'tina@example.com', 'Tina', 'Torres', []],
      ['uma@example.com', 'uma@example.com', 'Uma', 'Usher', []],
      ['victor@example.com', 'victor@example.com', 'Victor', 'Vance', []],
      ['wendy@example.com', 'wendy@example.com', 'Wendy', 'Wu', []],
      ['xena@example.com', 'xena@example.com', 'Xena', 'Xu', []],
      ['yusuf@example.com', 'yusuf@example.com', 'Yusuf', 'Yilmaz', []],
    ]);
    expect(await verifyPassword('first-password', accounts[0]!.password_hash)).toBe(true);
  });

  it('provisions everyone but nomfa@ at the builtin MFA provider, with disabled@ disabled', async () => {
    const users = await database.db
      .selectFrom('mfa_user')
      .select(['username', 'status', 'status_reason', 'real_name'])
      .orderBy('username')
      .execute();
    expect(users).toEqual([
      { username: 'admin@example.com', status: 'active', status_reason: null, real_name: 'Ada Admin' },
      { username: 'alice@example.com', status: 'active', status_reason: null, real_name: 'Alice Anders' },
      { username: 'bob@example.com', status: 'active', status_reason: null, real_name: 'Bob Brown' },
      { username: 'carol@example.com', status: 'active', status_reason: null, real_name: 'Carol Clark' },
      { username: 'dave@example.com', status: 'active', status_reason: null, real_name: 'Dave Dunn' },
      { username: 'disabled@example.com', status: 'disabled', status_reason: 'Disabled by the security team', real_name: 'Dan Disabled' },
      { username: 'erin@example.com', status: 'active', status_reason: null, real_name: 'Erin Ellis' },
      { username: 'frank@example.com', status: 'active', status_reason: null, real_name: 'Frank Fisher' },
      { username: 'grace@example.com', status: 'active', status_reason: null, real_name: 'Grace Green' },
      { username: 'helpdesk@example.com', status: 'active', status_reason: null, real_name: 'Hana Helpdesk' },
      { username: 'ivan@example.com', status: 'active', status_reason: null, real_name: 'Ivan Ives' },
      { username: 'judy@example.com', status: 'active', status_reason: null, real_name: 'Judy Jones' },
      { username: 'kim@example.com', status: 'active', status_reason: null, real_name: 'Kim King' },
      { username: 'lena@example.com', status: 'active', status_reason: null, real_name: 'Lena Lund' },
      { username: 'mia@example.com', status: 'active', status_reason: null, real_name: 'Mia Moreau' },
      { username: 'noah@example.com', status: 'active', status_reason: null, real_name: 'Noah Nash' },
      { username: 'olga@example.com', status: 'active', status_reason: null, real_name: 'Olga Olsen' },
      { username: 'paul@example.com', status: 'active', status_reason: null, real_name: 'Paul Parker' },
      { username: 'sam@example.com', status: 'active', status_reason: null, real_name: 'Sam Stone' },
      { username: 'tina@example.com', status: 'active', status_reason: null, real_name: 'Tina Torres' },
      { username: 'uma@example.com', status: 'active', status_reason: null, real_name: 'Uma Usher' },
      { username: 'victor@example.com', status: 'active', status_reason: null, real_name: 'Victor Vance' },
      { username: 'wendy@example.com', status: 'active', status_reason: null, real_name: 'Wendy Wu' },
      { username: 'xena@example.com', status: 'active', status_reason: null, real_name: 'Xena Xu' },
      { username: 'yusuf@example.com', status: 'active', status_reason: null, real_name: 'Yusuf Yilmaz' },
    ]);
  });

  it('gives bob an authenticator app and a D100 token, helpdesk@ and admin@ an authenticator app and a demo token each, alice none', async () => {
    const devices = await database.db
      .selectFrom('mfa_device')
      .innerJoin('mfa_user', 'mfa_user.id', 'mfa_device.user_id')
      .select(['mfa_user.username', 'kind', 'name', 'capabilities', 'phone_number', 'platform', 'serial', 'token_type'])
      .orderBy('mfa_user.username')
      .orderBy('mfa_device.created_at')
      .execute();
    const of = (u: string) => devices.filter((d) => d.username === u);
    expect(of('bob@example.com')).toEqual([
      // The builtin provider cannot reach a phone: bob's iPhone 15 is the authenticator app on it.
      {
        username: 'bob@example.com',
        kind: 'authenticator',
        name: 'iPhone 15',
        capabilities: ['passcode'],
        phone_number: null,
        platform: null,
        serial: null,
        token_type: null,
      },
      {
        username: 'bob@example.com',
        kind: 'hardware_token',
        name: 'Duo D100 token',
        capabilities: ['passcode'],
        phone_number: null,
        platform: null,
        serial: 'D100-0001',
        token_type: 'Duo D100',
      },
    ]);
    // Protected accounts cannot add a factor themselves: they start with a demo token they can sign in with.
    expect(of('helpdesk@example.com').map((d) => [d.kind, d.serial])).toEqual([
      ['authenticator', null],
      ['hardware_token', 'D100-0005'],
    ]);
    expect(of('admin@example.com').map((d) => [d.kind, d.serial])).toEqual([
      ['authenticator', null],
      ['hardware_token', 'D100-0006'],
    ]);
    expect(of('alice@example.com')).toEqual([]);
    // No demo device is a phone: nothing the builtin provider could not use.
    expect(devices.filter((d) => d.kind === 'phone')).toEqual([]);
    expect(of('disabled@example.com')).toEqual([]);
  });

  it('does nothing on later starts: no new rows, no password change, removed devices stay removed', async () => {
    const bob = await database.db.selectFrom('mfa_user').select('id').where('username', '=', 'bob@example.com').executeTakeFirstOrThrow();
    await database.db.deleteFrom('mfa_device').where('user_id', '=', bob.id).where('kind', '=', 'hardware_token').execute();
    await database.db.deleteFrom('idp_account').where('username', '=', 'alice@example.com').execute();

    await seedDemoStaff(database.db, { password: 'second-password' });

    const accounts = await database.db.selectFrom('idp_account').select(['username', 'password_hash']).execute();
    expect(accounts.map((a) => a.username)).not.toContain('alice@example.com');
    for (const a of accounts) expect(await verifyPassword('first-password', a.password_hash)).toBe(true);
    const bobDevices = await database.db.selectFrom('mfa_device').select('kind').where('user_id', '=', bob.id).execute();
    expect(bobDevices).toEqual([{ kind: 'authenticator' }]);
  }, 120_000); // a password check per demo account (scrypt) on a loaded machine
});
