import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { DatabaseHandle } from '../../db/database.js';
import { createTestDatabase } from '../../../test/database.js';
import { createAuditService, type AuditEntry } from './audit.service.js';
import { walkChain } from './chain-verification.js';
import { createChainVerificationService, type ChainVerificationService } from './chain-verification.service.js';
import { runChainWorker } from './audit-chain-worker.client.js';

/**
 * Verification runs in a worker thread : its own connection on PostgreSQL, pages relayed by
 * the main thread on PGlite. The verdicts are the in-thread walk's, and shutdown stops the worker.
 */

const entry = (n: number): AuditEntry => ({
  actor: { upn: 'alice@example.com', roles: [] },
  target: 'bob@example.com',
  action: 'device.rename',
  outcome: 'success',
  requestId: `req-${n}`,
  clientAddress: '192.0.2.1',
  details: { deviceId: `d-${n}`, nested: { b: n, a: [1, 'two'] } },
});

let handle: DatabaseHandle;
let db: Kysely<Database>;
let service: ChainVerificationService;

async function verdict(mode: 'full' | 'incremental' = 'full') {
  const run = await service.start({ mode, startedBy: 'admin@example.com' });
  await service.settled(run.id);
  return (await service.get(run.id))!;
}

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
  const audit = createAuditService(db);
  for (let i = 0; i < 60; i++) await audit.append(entry(i));
  service = createChainVerificationService(db, { batchSize: 7, checkpointEvery: 20, ...(handle.url ? { databaseUrl: handle.url } : {}) });
}, 120_000);
afterAll(async () => {
  await service.close();
  await handle.close();
});

describe('hash-chain verification in a worker thread', () => {
  it(`gives the in-thread walk's verdict, with its progress and checkpoints`, async () => {
    const run = await verdict('full');
    expect(run.state).toBe('done');
    expect(run.result).toEqual({ ...(await walkChain(db, { mode: 'full' })) });
    expect(run.result).toMatchObject({ ok: true, count: 60 });
    expect([run.checked, run.total]).toEqual([60, 60]);
    const checkpoints = await db.selectFrom('audit_checkpoint').select('event_count').orderBy('last_event_id').execute();
    expect(checkpoints.map((c) => Number(c.event_count))).toEqual(expect.arrayContaining([21, 42, 60]));
    expect((await verdict('incremental')).result).toMatchObject({ ok: true, count: 60 });
  }, 60_000);

  it('finds a tampered row, at the index and id the in-thread walk reports', async () => {
    const victim = (await db.selectFrom('audit_event').select('id').orderBy('id').offset(33).limit(1).executeTakeFirstOrThrow()).id;
    await db.transaction().execute(async (trx) => {
      await sql`alter table audit_event disable trigger all`.execute(trx);
      await sql`update audit_event set outcome = 'failure' where id = ${victim}`.execute(trx);
      await sql`alter table audit_event enable trigger all`.execute(trx);
    });
    const run = await verdict('full');
    expect(run.state).toBe('done');
    expect(run.result).toEqual({ ok: false, brokenAt: 33, id: String(victim), reason: 'hash_mismatch' });
    expect(run.result).toEqual(await walkChain(db, { mode: 'full' }));
  }, 60_000);

  it('stops the worker on shutdown: the run ends as interrupted', async () => {
    const worker = runChainWorker(db, { mode: 'full', source: { kind: 'relay' } }, () => {});
    await worker.terminate();
    await expect(worker.result).rejects.toThrow(/exited/);

    const other = createChainVerificationService(db, handle.url ? { databaseUrl: handle.url } : {});
    const run = await other.start({ mode: 'full', startedBy: null });
    await other.close();
    await other.settled(run.id);
    const after = (await other.get(run.id))!;
    expect(after.state).toBe('failed');
    expect(after.result).toEqual({ ok: false, error: 'interrupted' });
  }, 60_000);
});
