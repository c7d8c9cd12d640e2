import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELPDESK, JUSTIFY, callAs } from '../../test/admin-api.js';
import { createTestDatabase } from '../../test/database.js';
import { meTestApp, type MeTestApp } from '../../test/me-api.js';
import { CHANGE_CHANNEL } from '../db/migrations/0017_change_feed.js';
import type { DatabaseHandle } from '../db/database.js';

/**
 * Which requests drop kept reads on the instance that answers them: only a change that succeeded, made
 * by a signed-in caller, and only for the users it touched. Everything else (anyone's failed request, a
 * change made elsewhere) is for the change feed to report; here the feed hears its heartbeat but no
 * change, so what is dropped was dropped by the request itself.
 */
describe('read caches and the requests this instance answers', () => {
  let database: DatabaseHandle;
  let m: MeTestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    const deaf: DatabaseHandle = {
      ...database,
      subscribe: (channels, onMessage, onState) =>
        database.subscribe!(channels, (payload, channel) => channel === CHANGE_CHANNEL || onMessage(payload, channel), onState),
    };
    m = await meTestApp({}, { database: deaf });
  });
  afterAll(async () => {
    await m?.close();
    await database?.close();
  });

  const revocationHits = async () =>
    (await m.t.app.metrics.registry.getSingleMetric('portal_read_cache_lookups_total')!.get()).values.find(
      (v) => v.labels.cache === 'revocation' && v.labels.result === 'hit',
    )?.value ?? 0;

  /** Whether `upn`'s session revocation was answered from memory on their next call (it is kept again afterwards). */
  async function kept(upn: string): Promise<boolean> {
    const before = await revocationHits();
    const res = await callAs(m, { upn, roles: [] }, 'GET', '/api/me/capabilities');
    expect(res.statusCode, res.body).toBe(200);
    return (await revocationHits()) > before;
  }

  const users = ['bob@example.com', 'carol@example.com', HELPDESK.upn];

  it('keeps every read through anonymous changes, unknown routes and refused changes', async () => {
    for (const upn of users) await kept(upn);
    for (const upn of users) expect(await kept(upn), upn).toBe(true);

    const anonymous = [
      ['POST', '/api/me/sign-out'],
      ['POST', '/api/no-such-route'],
      ['DELETE', '/api/me/devices/00000000-0000-4000-8000-000000000000'],
      ['POST', '/api/admin/users/carol@example.com/unlock'],
      ['POST', '/scim/v2/Users'],
    ] as const;
    for (const [method, url] of anonymous) {
      const res = await callAs(m, null, method, url, {});
      expect(res.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
    }
    // Signed in, but the change fails: not found, or not allowed.
    expect((await callAs(m, { upn: 'bob@example.com', roles: [] }, 'POST', '/api/no-such-route', {})).statusCode).toBe(404);
    const refused = await callAs(m, { upn: 'bob@example.com', roles: [] }, 'POST', '/api/admin/users/carol@example.com/unlock', JUSTIFY);
    expect(refused.statusCode).toBe(403);

    for (const upn of users) expect(await kept(upn), upn).toBe(true);
  });

  it("a successful change drops the reads of its caller and of the user an admin route acts on, no one else's", async () => {
    for (const upn of users) await kept(upn);
    const res = await callAs(m, HELPDESK, 'POST', '/api/admin/users/Carol@Example.com/activation', JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    expect(await kept('carol@example.com')).toBe(false);
    expect(await kept(HELPDESK.upn)).toBe(false);
    expect(await kept('bob@example.com')).toBe(true);

    // The caller's own change (a sign-out): their next request here sees it, others keep theirs.
    const token = await m.token('bob@example.com');
    const out = await m.t.app.inject({ method: 'POST', url: '/api/me/sign-out', headers: { authorization: `Bearer ${token}` } });
    expect(out.statusCode).toBe(204);
    const after = await m.t.app.inject({ url: '/api/me/capabilities', headers: { authorization: `Bearer ${token}` } });
    expect(after.statusCode).toBe(401);
    expect(await kept('carol@example.com')).toBe(true);
    expect(await kept(HELPDESK.upn)).toBe(true);
  });
});
