import { describe, expect, it } from 'vitest';
import { SCIM, SCIM_TOKEN, entraUser, expectScimError, patchOp, useScimTestApp } from '../../../test/scim-api.js';

/**
 * SCIM writes of one user apply one after the other: each PATCH reads the row under its lock in its
 * own transaction. On PostgreSQL (the server-pg project, a pool of connections) the requests below
 * really overlap; a PATCH that read the row before another committed would write `active: true` back.
 */

const s = useScimTestApp();

const ROUNDS = 6;
const RENAMES = 12;

describe('concurrent SCIM writes of one user', () => {
  it('never write a stale active back: after concurrent displayName and active:false PATCHes the user is inactive', async () => {
    const created = await s.scim('POST', '/Users', entraUser('racer@example.com'));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    for (let round = 0; round < ROUNDS; round++) {
      const on = await s.scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: true }));
      expect(on.json().active).toBe(true);
      const requests = Array.from({ length: RENAMES }, (_, i) =>
        s.scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'displayName', value: `Racer ${round}.${i}` })),
      );
      // The deactivation lands among the renames, so some of them started before it and end after it.
      requests.splice(round % RENAMES, 0, s.scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: 'False' })));
      const answers = await Promise.all(requests);
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);

      const row = await s.db.selectFrom('scim_user').select(['active', 'display_name']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.active, `round ${round}`).toBe(false);
      expect(row.display_name).toMatch(new RegExp(`^Racer ${round}\\.`));
      const account = await s.db
        .selectFrom('mfa_user')
        .select('status')
        .where('username', '=', 'racer@example.com')
        .executeTakeFirstOrThrow();
      expect(account.status).toBe('disabled');
      expect((await s.scim('GET', `/Users/${id}`)).json().active).toBe(false);
    }
    // One deactivation per round and one reactivation per later round, each audited once.
    expect(await s.auditOf('scim.user.deactivate')).toHaveLength(ROUNDS);
    expect(await s.auditOf('scim.user.reactivate')).toHaveLength(ROUNDS - 1);
  });

  it('never lose a member: concurrent PATCHes that each add one member to a group all count', async () => {
    const ids: string[] = [];
    for (let i = 0; i < RENAMES; i++) {
      const res = await s.scim('POST', '/Users', entraUser(`member${i}@race.example`));
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id as string);
    }
    const group = (await s.scim('POST', '/Groups', { displayName: 'Racing group' })).json();
    const answers = await Promise.all(
      ids.map((id) => s.scim('PATCH', `/Groups/${group.id}`, patchOp({ op: 'add', path: 'members', value: [{ value: id }] }))),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const members = await s.db.selectFrom('scim_group_member').select('user_id').where('group_id', '=', group.id).execute();
    expect(members.map((m) => m.user_id).sort()).toEqual([...ids].sort());
  });

  it('honour If-Match: a write naming a version older than the stored one answers 412 and changes nothing', async () => {
    expect((await s.scim('GET', '/ServiceProviderConfig')).json().etag).toEqual({ supported: true });
    const created = await s.scim('POST', '/Users', entraUser('versioned@example.com'));
    const id = created.json().id as string;
    const first = created.headers.etag as string;
    expect(first).toBe(created.json().meta.version);
    const read = await s.scim('GET', `/Users/${id}`);
    expect(read.headers.etag).toBe(first);

    const write = (method: 'PATCH' | 'DELETE', ifMatch: string, body?: unknown) =>
      s.t.app.inject({
        method,
        url: `/scim/v2/Users/${id}`,
        headers: {
          authorization: `Bearer ${SCIM_TOKEN}`,
          'if-match': ifMatch,
          ...(body === undefined ? {} : { 'content-type': SCIM }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    await new Promise((r) => setTimeout(r, 5));
    const renamed = await write('PATCH', first, patchOp({ op: 'replace', path: 'displayName', value: 'Second' }));
    expect(renamed.statusCode, renamed.body).toBe(200);
    const second = renamed.headers.etag as string;
    expect(second).not.toBe(first);

    const row = () => s.db.selectFrom('scim_user').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const before = JSON.stringify(await row());
    expectScimError(await write('PATCH', first, patchOp({ op: 'replace', path: 'active', value: false })), 412);
    expectScimError(await write('DELETE', first), 412);
    expect(JSON.stringify(await row())).toBe(before);
    expect((await s.auditOf('scim.user.update')).at(-1)).toMatchObject({ outcome: 'failure' });
    expect((await s.auditOf('scim.user.deactivate')).filter((e) => e.target_upn === 'versioned@example.com')).toEqual([]);

    expect((await write('PATCH', `W/"1", ${second}`, patchOp({ op: 'replace', path: 'active', value: false }))).statusCode).toBe(200);
    expect((await write('DELETE', '*')).statusCode).toBe(204);
  });
});
