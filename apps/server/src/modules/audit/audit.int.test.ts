import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { DatabaseHandle } from '../../db/database.js';
import { createTestDatabase } from '../../../test/database.js';
import { AuditSecretError, chainHash, GENESIS_HASH } from './audit-chain.js';
import { createAuditService, toChainedEvent, type AuditEntry, type AuditService } from './audit.service.js';

const entry = (n: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  actor: { upn: 'alice@example.com', roles: [] },
  target: 'alice@example.com',
  action: 'device.rename',
  outcome: 'success',
  requestId: `req-${n}`,
  clientAddress: '192.0.2.1',
  details: { deviceId: `d-${n}`, deviceName: `Phone ${n}`, nested: { b: 1, a: [1, 'two'] } },
  ...over,
});

/** Runs SQL with the append-only trigger off, as an attacker with the database owner's rights could. */
async function tamper(db: Kysely<Database>, statement: ReturnType<typeof sql>) {
  await db.transaction().execute(async (trx) => {
    await sql`alter table audit_event disable trigger audit_event_append_only`.execute(trx);
    await statement.execute(trx);
    await sql`alter table audit_event enable trigger audit_event_append_only`.execute(trx);
  });
}

describe('audit log', () => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let audit: AuditService;
  beforeAll(async () => {
    handle = await createTestDatabase();
    db = handle.db;
    audit = createAuditService(db);
  });
  afterAll(() => handle.close());

  it('starts as a valid empty chain at the genesis hash', async () => {
    expect(await audit.verify()).toEqual({ ok: true, count: 0, head: GENESIS_HASH });
  });

  it('chains each appended event to the previous one and moves the head', async () => {
    const first = await audit.append(entry(1), { now: new Date('2030-01-01T00:00:00.123Z') });
    const second = await audit.append(entry(2, { actor: null, outcome: 'failure', reason: 'device.not_found', details: null }));
    expect(first.prevHash).toBe(GENESIS_HASH);
    expect(second.prevHash).toBe(first.hash);
    const head = await db.selectFrom('audit_head').selectAll().executeTakeFirstOrThrow();
    expect(head).toMatchObject({ hash: second.hash, last_event_id: Number(second.id) });
    const rows = await db.selectFrom('audit_event').selectAll().orderBy('id').execute();
    expect(rows.map((r) => [r.action, r.outcome, r.reason, r.actor_upn, r.target_upn])).toEqual([
      ['device.rename', 'success', null, 'alice@example.com', 'alice@example.com'],
      ['device.rename', 'failure', 'device.not_found', null, 'alice@example.com'],
    ]);
    expect(await audit.verify()).toEqual({ ok: true, count: 2, head: second.hash });
  });

  it('refuses details that name a secret or a code, writing nothing', async () => {
    const before = await audit.verify();
    await expect(audit.append(entry(3, { details: { code: '123456' } }))).rejects.toThrow(AuditSecretError);
    await expect(audit.append(entry(3, { details: { device: { totpSecret: 'JBSWY3DP' } } }))).rejects.toThrow(AuditSecretError);
    expect(await audit.verify()).toEqual(before);
  });

  it('is append-only: updates, deletes and truncation are refused', async () => {
    await expect(sql`update audit_event set outcome = 'success'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_event`.execute(db)).rejects.toThrow(/append-only/);
    // The SIEM outbox's foreign key refuses a plain truncate first; with cascade the table's own trigger does.
    await expect(sql`truncate audit_event`.execute(db)).rejects.toThrow(/append-only|foreign key/);
    await expect(sql`truncate audit_event cascade`.execute(db)).rejects.toThrow(/append-only/);
    expect((await audit.verify()).ok).toBe(true);
  });

  it('keeps one valid chain under concurrent appends', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => audit.append(entry(100 + i))));
    expect(await audit.verify()).toMatchObject({ ok: true, count: 22 });
    expect(await audit.verify({ batchSize: 3 })).toMatchObject({ ok: true, count: 22 });
  });

  it('pages the events of a user, newest first (as target or actor)', async () => {
    await audit.append(
      entry(200, { actor: { upn: 'helpdesk@example.com', roles: ['Helpdesk Administrator'] }, target: 'bob@example.com' }),
    );
    await audit.append(entry(201, { actor: { upn: 'bob@example.com', roles: [] }, target: 'bob@example.com' }));
    await audit.append(entry(202, { actor: { upn: 'helpdesk@example.com', roles: [] }, target: 'carol@example.com' }));
    const page1 = await audit.listForUser('BOB@example.com', { limit: 1 });
    expect(page1.events.map((e) => e.requestId)).toEqual(['req-201']);
    const page2 = await audit.listForUser('bob@example.com', { limit: 1, cursor: page1.nextCursor! });
    expect(page2.events.map((e) => e.requestId)).toEqual(['req-200']);
    expect(page2.nextCursor).toBeNull();
    expect((await audit.listForUser('helpdesk@example.com', { limit: 10 })).events.map((e) => e.requestId)).toEqual(['req-202', 'req-200']);
  });
});

describe('audit log: tamper detection', () => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let audit: AuditService;
  let ids: string[];
  beforeAll(async () => {
    handle = await createTestDatabase();
    db = handle.db;
    audit = createAuditService(db);
    ids = [];
    for (let i = 1; i <= 6; i += 1) ids.push((await audit.append(entry(i))).id);
    expect((await audit.verify()).ok).toBe(true);
  });
  afterAll(() => handle.close());

  it('reports an edited row as the first broken link', async () => {
    await tamper(db, sql`update audit_event set outcome = 'failure' where id = ${Number(ids[2])}`);
    expect(await audit.verify()).toEqual({ ok: false, brokenAt: 2, id: ids[2], reason: 'hash_mismatch' });
    await tamper(db, sql`update audit_event set outcome = 'success' where id = ${Number(ids[2])}`);
    expect((await audit.verify()).ok).toBe(true);
  });

  it('reports edited details and actors too', async () => {
    await tamper(db, sql`update audit_event set details = jsonb_set(details, '{deviceName}', '"Other"') where id = ${Number(ids[1])}`);
    expect(await audit.verify()).toMatchObject({ ok: false, brokenAt: 1, id: ids[1], reason: 'hash_mismatch' });
    await tamper(db, sql`update audit_event set details = jsonb_set(details, '{deviceName}', '"Phone 2"') where id = ${Number(ids[1])}`);
    await tamper(db, sql`update audit_event set actor_upn = 'mallory@example.com' where id = ${Number(ids[4])}`);
    expect(await audit.verify()).toMatchObject({ ok: false, brokenAt: 4, id: ids[4], reason: 'hash_mismatch' });
    await tamper(db, sql`update audit_event set actor_upn = 'alice@example.com' where id = ${Number(ids[4])}`);
    expect((await audit.verify()).ok).toBe(true);
  });

  it('reports an edited and re-hashed row at the row after it (its link no longer matches)', async () => {
    // The attacker recomputes the edited row's hash: that row is consistent, the next one is not.
    const row = await db.selectFrom('audit_event').selectAll().where('id', '=', Number(ids[3])).executeTakeFirstOrThrow();
    const edited = { ...toChainedEvent(row), outcome: 'failure' };
    const hash = chainHash(edited.prevHash, edited);
    await tamper(db, sql`update audit_event set outcome = 'failure', hash = ${hash} where id = ${Number(ids[3])}`);
    expect(await audit.verify()).toEqual({ ok: false, brokenAt: 4, id: ids[4], reason: 'prev_mismatch' });
  });

  it('reports a deleted row at the row after it', async () => {
    const fresh = await createTestDatabase();
    const a = createAuditService(fresh.db);
    const list: string[] = [];
    for (let i = 1; i <= 5; i += 1) list.push((await a.append(entry(i))).id);
    await tamper(fresh.db, sql`delete from audit_event where id = ${Number(list[1])}`);
    expect(await a.verify()).toEqual({ ok: false, brokenAt: 1, id: list[2], reason: 'prev_mismatch' });
    await fresh.close();
  });

  it('reports rows removed at the end through the stored head', async () => {
    const fresh = await createTestDatabase();
    const a = createAuditService(fresh.db);
    const list: string[] = [];
    for (let i = 1; i <= 4; i += 1) list.push((await a.append(entry(i))).id);
    await tamper(fresh.db, sql`delete from audit_event where id = ${Number(list[3])}`);
    expect(await a.verify()).toEqual({ ok: false, brokenAt: 3, id: null, reason: 'prev_mismatch' });
    await fresh.close();
  });
});
