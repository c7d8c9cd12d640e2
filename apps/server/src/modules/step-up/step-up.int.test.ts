import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { createTestDatabase } from '../../../test/database.js';
import { createStepUpService, type StepUpService } from './step-up.service.js';

const T0 = new Date('2030-01-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
/** A user in one sign-in session (`s1` unless said). */
const who = (upn: string, session = 's1') => ({ upn, session });

describe('step-up service', () => {
  let handle: DatabaseHandle;
  let stepUp: StepUpService;
  beforeAll(async () => {
    handle = await createTestDatabase();
    stepUp = createStepUpService(handle.db, { maxAgeSeconds: 300 });
  });
  afterAll(() => handle.close());

  it('is inactive until the user verifies', async () => {
    expect(await stepUp.status(who('alice@example.com'), T0)).toEqual({
      active: false,
      method: null,
      verifiedAt: null,
      expiresAt: null,
      maxAgeSeconds: 300,
    });
    expect(await stepUp.isFresh(who('alice@example.com'), T0)).toBe(false);
  });

  it('is active for exactly the maximum age after a verification, for that user only', async () => {
    const recorded = await stepUp.record(who('Alice@Example.com'), 'passcode', T0);
    expect(recorded).toEqual({
      active: true,
      method: 'passcode',
      verifiedAt: T0.toISOString(),
      expiresAt: at(300_000).toISOString(),
      maxAgeSeconds: 300,
    });
    expect(await stepUp.status(who('alice@example.com'), at(299_999))).toEqual(recorded);
    expect(await stepUp.isFresh(who('alice@example.com'), at(300_000))).toBe(false);
    expect(await stepUp.isFresh(who('bob@example.com'), at(1))).toBe(false);
  });

  it('ignores a verification recorded in the future of the clock', async () => {
    await stepUp.record(who('carol@example.com'), 'bypass', at(60_000));
    expect(await stepUp.isFresh(who('carol@example.com'), T0)).toBe(false);
    expect(await stepUp.status(who('carol@example.com'), at(60_000))).toMatchObject({ active: true, method: 'bypass' });
  });

  it('keeps only recent records of a user', async () => {
    await stepUp.record(who('dave@example.com'), 'passcode', T0);
    await stepUp.record(who('dave@example.com'), 'bypass', at(600_000));
    const rows = await handle.db.selectFrom('step_up').selectAll().where('upn', '=', 'dave@example.com').execute();
    expect(rows.map((r) => r.method)).toEqual(['bypass']);
  });

  it('follows a configured maximum age', async () => {
    const short = createStepUpService(handle.db, { maxAgeSeconds: 30 });
    await short.record(who('erin@example.com'), 'passcode', T0);
    expect(await short.isFresh(who('erin@example.com'), at(29_999))).toBe(true);
    expect(await short.isFresh(who('erin@example.com'), at(30_000))).toBe(false);
  });

  it('belongs to the session that earned it: another session of the same user does not inherit it', async () => {
    await stepUp.record(who('frank@example.com', 'session-a'), 'passcode', T0);
    expect(await stepUp.isFresh(who('frank@example.com', 'session-a'), at(1))).toBe(true);
    expect(await stepUp.isFresh(who('frank@example.com', 'session-b'), at(1))).toBe(false);
    expect(await stepUp.status(who('frank@example.com', 'session-b'), at(1))).toMatchObject({ active: false });
  });

  it('ends for every session of the user at once (sign-out, a lock)', async () => {
    await stepUp.record(who('gina@example.com', 'session-a'), 'passcode', T0);
    await stepUp.record(who('gina@example.com', 'session-b'), 'push', T0);
    await stepUp.record(who('hank@example.com', 'session-a'), 'push', T0);
    await stepUp.endAll('Gina@Example.com');
    expect(await stepUp.isFresh(who('gina@example.com', 'session-a'), at(1))).toBe(false);
    expect(await stepUp.isFresh(who('gina@example.com', 'session-b'), at(1))).toBe(false);
    expect(await stepUp.isFresh(who('hank@example.com', 'session-a'), at(1))).toBe(true);
  });
});
