import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.js';
import type { DatabaseHandle } from '../db/database.js';
import { createAdapterClass, sweepExpiredPayloads } from './adapter.js';
import { loadIdpSecrets, publicJwks } from './secrets.js';

describe('oidc-provider adapter on oidc_payload', () => {
  let database: DatabaseHandle;
  let clock = new Date('2030-01-01T00:00:00Z');
  let Adapter: ReturnType<typeof createAdapterClass>;

  beforeAll(async () => {
    database = await createTestDatabase();
    Adapter = createAdapterClass(database.db, () => clock);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('stores, replaces and finds a payload by model and id', async () => {
    const sessions = new Adapter('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a', exp: 1 }, 60);
    await sessions.upsert('s1', { uid: 'u1', accountId: 'b', exp: 2 }, 60);
    expect(await sessions.find('s1')).toEqual({ uid: 'u1', accountId: 'b', exp: 2 });
    expect(await new Adapter('AccessToken').find('s1')).toBeUndefined();
  });

  it('finds a session by uid and a device code by user code', async () => {
    await new Adapter('Session').upsert('s2', { uid: 'uid-2' }, 60);
    await new Adapter('DeviceCode').upsert('d1', { userCode: 'ABCD-EFGH', grantId: 'g0' }, 60);
    expect(await new Adapter('Session').findByUid('uid-2')).toEqual({ uid: 'uid-2' });
    expect(await new Adapter('DeviceCode').findByUserCode('ABCD-EFGH')).toMatchObject({ userCode: 'ABCD-EFGH' });
    expect(await new Adapter('Session').findByUid('nope')).toBeUndefined();
  });

  it('marks a consumed payload with the consumption time', async () => {
    const codes = new Adapter('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await codes.consume('c1');
    expect(await codes.find('c1')).toEqual({ grantId: 'g1', consumed: Math.floor(clock.getTime() / 1000) });
  });

  it('hides expired payloads, keeps those without expiry, and sweeps the long expired', async () => {
    const interactions = new Adapter('Interaction');
    await interactions.upsert('i1', { a: 1 }, 10);
    await interactions.upsert('i2', { a: 2 });
    const start = clock;
    clock = new Date(start.getTime() + 11_000);
    expect(await interactions.find('i1')).toBeUndefined();
    expect(await interactions.find('i2')).toEqual({ a: 2 });
    expect(await sweepExpiredPayloads(database.db, clock)).toBe(0);
    expect(await sweepExpiredPayloads(database.db, new Date(clock.getTime() + 2 * 60 * 60 * 1000))).toBeGreaterThanOrEqual(1);
    clock = start;
    expect(await interactions.find('i1')).toBeUndefined();
  });

  it('destroys one payload, and revokes every token of a grant in its model', async () => {
    const tokens = new Adapter('RefreshToken');
    const access = new Adapter('AccessToken');
    await tokens.upsert('r1', { grantId: 'g9' }, 60);
    await tokens.upsert('r2', { grantId: 'g9' }, 60);
    await tokens.upsert('r3', { grantId: 'other' }, 60);
    await access.upsert('a1', { grantId: 'g9' }, 60);
    await tokens.revokeByGrantId('g9');
    expect(await tokens.find('r1')).toBeUndefined();
    expect(await tokens.find('r2')).toBeUndefined();
    expect(await tokens.find('r3')).toBeDefined();
    expect(await access.find('a1')).toBeDefined();
    await access.destroy('a1');
    expect(await access.find('a1')).toBeUndefined();
  });
});

describe('identity provider secrets', () => {
  it('creates the signing and cookie keys once and returns the same ones afterwards', async () => {
    const database = await createTestDatabase();
    try {
      const [a, b] = await Promise.all([loadIdpSecrets(database.db), loadIdpSecrets(database.db)]);
      expect(b).toEqual(a);
      expect(await loadIdpSecrets(database.db)).toEqual(a);
      expect(a.signingKeys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      expect(a.signingKeys[0]).toHaveProperty('d');
      const pub = publicJwks(a.signingKeys);
      expect(Object.keys(pub.keys[0]!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    } finally {
      await database.close();
    }
  });
});
