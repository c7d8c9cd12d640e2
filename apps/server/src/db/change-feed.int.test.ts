import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.js';
import { ReadCache } from '../lib/read-cache.js';
import { startChangeFeed, type ChangeFeed, type ChangeFeedState } from './change-feed.js';
import { LISTEN_APPLICATION_NAME, openDatabase, type DatabaseHandle } from './database.js';

/**
 * The change feed on the real database (PGlite, and PostgreSQL in the server-pg project): every
 * committed change to what the API caches per user drops that user's cached reads, and only theirs.
 */
describe('change feed (migration 0017 and db/change-feed)', () => {
  let database: DatabaseHandle;
  let feed: ChangeFeed;
  const cache = new ReadCache<string>({ name: 'test', maxEntries: 1000, ttlMs: () => 600_000 });
  const users = ['carol@feed.test', 'dave@feed.test'];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase();
    feed = startChangeFeed(database, [cache as ReadCache<unknown>]);
    for (let i = 0; i < 100 && !feed.listening; i++) await new Promise((r) => setTimeout(r, 50));
    for (const upn of users) {
      const row = await database.db
        .insertInto('mfa_user')
        .values({ username: upn === users[0] ? 'Carol@Feed.Test' : upn, email: upn, real_name: upn, status: 'active' })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[upn] = row.id;
    }
  });
  afterAll(async () => {
    await feed.stop();
    await database.close();
  });

  /** Caches a value for both users, makes `change`, waits until the feed has heard it; answers who was dropped. */
  async function dropped(change: () => Promise<unknown>): Promise<string[]> {
    expect(await feed.heard()).toBe(true);
    for (const upn of users) {
      cache.invalidate([upn]);
      await cache.get(upn, async () => 'kept');
    }
    await change();
    expect(await feed.heard()).toBe(true);
    const gone: string[] = [];
    for (const upn of users) if ((await cache.get(upn, async () => 'fresh')) === 'fresh') gone.push(upn);
    return gone;
  }

  beforeEach(() => cache.clear());

  it('listens, and keeps values while it does', async () => {
    expect(feed.listening).toBe(true);
    expect(cache.isLive).toBe(true);
    expect(await dropped(async () => {})).toEqual([]);
  });

  it('drops the user whose account row changed (lower-case sign-in name)', async () => {
    expect(
      await dropped(() => database.db.updateTable('mfa_user').set({ status: 'disabled' }).where('id', '=', ids[users[0]!]!).execute()),
    ).toEqual([users[0]]);
  });

  it('drops the user whose device, bypass code or passkey credential changed', async () => {
    const dave = ids[users[1]!]!;
    const device = () =>
      database.db
        .insertInto('mfa_device')
        .values({ user_id: dave, kind: 'authenticator', name: 'Phone' })
        .returning('id')
        .executeTakeFirstOrThrow();
    let deviceId = '';
    expect(await dropped(async () => (deviceId = (await device()).id))).toEqual([users[1]]);
    expect(
      await dropped(() => database.db.updateTable('mfa_device').set({ name: 'Work phone' }).where('id', '=', deviceId).execute()),
    ).toEqual([users[1]]);
    expect(
      await dropped(() =>
        database.db
          .insertInto('mfa_bypass_code')
          .values({
            user_id: dave,
            code_hash: 'feed-test-hash',
            uses_left: 1,
            expires_at: new Date(Date.now() + 3600_000),
            created_by: 'test',
          })
          .execute(),
      ),
    ).toEqual([users[1]]);
    const passkey = await database.db
      .insertInto('mfa_device')
      .values({ user_id: dave, kind: 'passkey', name: 'Passkey' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(
      await dropped(() =>
        database.db
          .insertInto('mfa_webauthn_credential')
          .values({
            device_id: passkey.id,
            credential_id: 'feed-test-credential',
            public_key: 'pk',
            aaguid: '00000000-0000-0000-0000-000000000000',
          })
          .execute(),
      ),
    ).toEqual([users[1]]);
    expect(await dropped(() => database.db.deleteFrom('mfa_device').where('user_id', '=', dave).execute())).toEqual([users[1]]);
  });

  it('drops a user whose sign-in name starts with ~ (markers travel on a channel of their own)', async () => {
    const tilde = '~bob@feed.test';
    await database.db.insertInto('mfa_user').values({ username: tilde, email: tilde, real_name: tilde, status: 'active' }).execute();
    expect(await feed.heard()).toBe(true);
    await cache.get(tilde, async () => 'kept');
    await database.db.updateTable('mfa_user').set({ status: 'disabled' }).where('username', '=', tilde).execute();
    expect(await feed.heard()).toBe(true);
    expect(await cache.get(tilde, async () => 'fresh')).toBe('fresh');
    // A marker's text on the changes' channel is a name like any other, not a marker.
    await cache.get(tilde, async () => 'kept');
    await sql`select pg_notify('portal_user_changes', ${tilde})`.execute(database.db);
    expect(await feed.heard()).toBe(true);
    expect(await cache.get(tilde, async () => 'fresh')).toBe('fresh');
  });

  it('drops the user whose sessions were revoked', async () => {
    expect(
      await dropped(() =>
        database.db.insertInto('session_revocation').values({ upn: users[1]!, revoked_before: new Date(), reason: 'sign_out' }).execute(),
      ),
    ).toEqual([users[1]]);
  });

  it('drops nobody for a change that was rolled back', async () => {
    const gone = await dropped(() =>
      database.db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('mfa_user').set({ real_name: 'Nobody' }).execute();
          throw new Error('roll back');
        })
        .catch(() => undefined),
    );
    expect(gone).toEqual([]);
  });

  it('drops everybody for one statement over very many users', async () => {
    const gone = await dropped(() =>
      sql`insert into mfa_user (username, status) select 'bulk-' || g || '-' || repeat('x', 40) || '@feed.test', 'active' from generate_series(1, 300) g`.execute(
        database.db,
      ),
    );
    expect(gone).toEqual(users);
  });

  it('keeps nothing while its connection is lost, and listens again by itself (PostgreSQL)', async () => {
    if (database.kind !== 'postgres') return;
    const states: boolean[] = [];
    const own = new ReadCache<string>({ name: 'own', maxEntries: 10, ttlMs: () => 600_000 });
    const other = startChangeFeed(database, [own as ReadCache<unknown>], { onState: (listening) => states.push(listening) });
    try {
      await expect.poll(() => other.listening).toBe(true);
      await own.get('x', async () => 'kept');
      // The server ends the listening connection (a restart, a fail-over, an administrator).
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
                where datname = current_database() and application_name = ${LISTEN_APPLICATION_NAME} and pid <> pg_backend_pid()`.execute(
        database.db,
      );
      await expect.poll(() => states.includes(false)).toBe(true);
      expect(await own.get('x', async () => 'fresh')).toBe('fresh');
      await expect.poll(() => other.listening, { timeout: 10_000 }).toBe(true);
      expect(states).toEqual([true, false, true]);
      expect(await other.heard()).toBe(true);
    } finally {
      await other.stop();
    }
  });

  it('counts as down while its heartbeat does not come back (a silent connection), and recovers by itself', async () => {
    // A half-open connection: it still looks open, nothing arrives on it. Here the notifications of
    // every subscription are dropped while `silent` is set.
    let silent = false;
    let subscriptions = 0;
    const quiet: Pick<DatabaseHandle, 'db' | 'subscribe'> = {
      db: database.db,
      subscribe: (channels, onMessage, onState) => {
        subscriptions++;
        return database.subscribe!(channels, (payload, channel) => silent || onMessage(payload, channel), onState);
      },
    };
    const states: [boolean, ChangeFeedState][] = [];
    let missed = 0;
    const own = new ReadCache<string>({ name: 'own', maxEntries: 10, ttlMs: () => 600_000 });
    const other = startChangeFeed(quiet, [own as ReadCache<unknown>], {
      heartbeatMs: 100,
      onState: (listening, state) => states.push([listening, state]),
      onHeartbeatMissed: () => missed++,
    });
    try {
      await expect.poll(() => other.listening).toBe(true);
      // Heartbeats come back: still listening after several of them.
      await new Promise((r) => setTimeout(r, 350));
      expect(other.listening).toBe(true);
      expect(missed).toBe(0);
      await own.get('x', async () => 'kept');
      expect(await own.get('x', async () => 'fresh')).toBe('kept');

      silent = true;
      await expect.poll(() => other.listening, { timeout: 5000 }).toBe(false);
      expect(other.state).toBe('silent');
      expect(missed).toBeGreaterThan(0);
      expect(own.isLive).toBe(false);
      expect(own.size).toBe(0);
      expect(await own.get('x', async () => 'fresh')).toBe('fresh');
      expect(own.size).toBe(0);
      expect(await other.heard(200)).toBe(false);
      // A new connection was opened, and is not trusted until a heartbeat comes back on it.
      await expect.poll(() => subscriptions, { timeout: 5000 }).toBeGreaterThan(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(other.listening).toBe(false);

      silent = false;
      await expect.poll(() => other.listening, { timeout: 5000 }).toBe(true);
      expect(other.state).toBe('listening');
      expect(own.isLive).toBe(true);
      await own.get('y', async () => 'kept');
      expect(await own.get('y', async () => 'fresh')).toBe('kept');
      expect(await other.heard()).toBe(true);
      expect(states[0]).toEqual([true, 'listening']);
      expect(states).toContainEqual([false, 'silent']);
      expect(states.at(-1)).toEqual([true, 'listening']);
    } finally {
      await other.stop();
    }
    expect(other.state).toBe('stopped');
    expect(own.isLive).toBe(false);
  });

  it('notices a half-open connection by its heartbeat, and listens again on a new one (PostgreSQL)', async () => {
    if (database.kind !== 'postgres') return;
    // A proxy in front of PostgreSQL that can freeze the connections it carries: they stay open, no
    // byte goes through any more (a NAT that forgot them). A new connection goes through as usual.
    const upstream = new URL(database.url!);
    const carried: { client: net.Socket; server: net.Socket; frozen: boolean }[] = [];
    const proxy = net.createServer((client) => {
      const server = net.connect(Number(upstream.port || 5432), upstream.hostname);
      const pair = { client, server, frozen: false };
      carried.push(pair);
      client.on('data', (b) => pair.frozen || server.write(b));
      server.on('data', (b) => pair.frozen || client.write(b));
      const close = () => {
        client.destroy();
        server.destroy();
      };
      client.on('close', close);
      server.on('close', close);
      client.on('error', close);
      server.on('error', close);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const via = new URL(database.url!);
    via.hostname = '127.0.0.1';
    via.port = String((proxy.address() as net.AddressInfo).port);
    const proxied = await openDatabase({ url: via.toString(), poolSize: 1 });
    const states: [boolean, ChangeFeedState][] = [];
    const own = new ReadCache<string>({ name: 'own', maxEntries: 10, ttlMs: () => 600_000 });
    const other = startChangeFeed({ db: database.db, subscribe: proxied.subscribe }, [own as ReadCache<unknown>], {
      heartbeatMs: 200,
      onState: (listening, state) => states.push([listening, state]),
    });
    try {
      await expect.poll(() => other.listening).toBe(true);
      expect(carried).toHaveLength(1);
      await own.get('x', async () => 'kept');
      for (const pair of carried) pair.frozen = true;
      await expect.poll(() => other.state, { timeout: 5000 }).toBe('silent');
      expect(own.size).toBe(0);
      // Listening again on a new connection; the frozen one was closed from this side.
      await expect.poll(() => other.listening, { timeout: 10_000 }).toBe(true);
      expect(carried.length).toBeGreaterThan(1);
      await expect.poll(() => carried[0]!.client.destroyed, { timeout: 5000 }).toBe(true);
      await own.get('y', async () => 'kept');
      await database.db.insertInto('session_revocation').values({ upn: 'y', revoked_before: new Date(), reason: 'sign_out' }).execute();
      expect(await other.heard()).toBe(true);
      expect(await own.get('y', async () => 'fresh')).toBe('fresh');
      expect(states).toEqual([
        [true, 'listening'],
        [false, 'silent'],
        [true, 'listening'],
      ]);
    } finally {
      await other.stop();
      await proxied.close();
      for (const pair of carried) pair.client.destroy();
      await new Promise((r) => proxy.close(r));
    }
  });

  it('keeps nothing once stopped', async () => {
    const other = startChangeFeed(database, [
      new ReadCache<string>({ name: 'other', maxEntries: 10, ttlMs: () => 1000 }) as ReadCache<unknown>,
    ]);
    await other.stop();
    expect(other.listening).toBe(false);
    expect(await other.heard()).toBe(false);
  });
});
