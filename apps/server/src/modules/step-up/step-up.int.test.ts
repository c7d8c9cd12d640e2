import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { createTestDatabase } from '../../../test/database.js';
import { createStepUpService, type StepUpService } from './step-up.service.js';

const T0 = new Date('2030-01-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

describe('step-up service', () => {
  let handle: DatabaseHandle;
  let stepUp: StepUpService;
  beforeAll(async () => {
    handle = await createTestDatabase();
    stepUp = createStepUpService(handle.db, { maxAgeSeconds: 300 });
  });
  afterAll(() => handle.close());

  it('is inactive until the user verifies', async () => {
    expect(await stepUp.status('alice@example.com', T0)).toEqual({
      active: false,
      method: null,
      verifiedAt: null,
      expiresAt: null,
      maxAgeSeconds: 300,
    });
    expect(await stepUp.isFresh('alice@example.com', T0)).toBe(false);
  });

  it('is active for exactly the maximum age after a verification, for that user only', async () => {
    const recorded = await stepUp.record('Alice@Example.com', 'passcode', T0);
    expect(recorded).toEqual({
      active: true,
      method: 'passcode',
      verifiedAt: T0.toISOString(),
      expiresAt: at(300_000).toISOString(),
      maxAgeSeconds: 300,
    });
    expect(await stepUp.status('alice@example.com', at(299_999))).toEqual(recorded);
    expect(await stepUp.isFresh('alice@example.com', at(300_000))).toBe(false);
    expect(await stepUp.isFresh('bob@example.com', at(1))).toBe(false);
  });

  it('ignores a verification recorded in the future of the clock', async () => {
    await stepUp.record('carol@example.com', 'bypass', at(60_000));
    expect(await stepUp.isFresh('carol@example.com', T0)).toBe(false);
    expect(await stepUp.status('carol@example.com', at(60_000))).toMatchObject({ active: true, method: 'bypass' });
  });

  it('keeps only recent records of a user', async () => {
    await stepUp.record('dave@example.com', 'passcode', T0);
    await stepUp.record('dave@example.com', 'bypass', at(600_000));
    const rows = await handle.db.selectFrom('step_up').selectAll().where('upn', '=', 'dave@example.com').execute();
    expect(rows.map((r) => r.method)).toEqual(['bypass']);
  });

  it('follows a configured maximum age', async () => {
    const short = createStepUpService(handle.db, { maxAgeSeconds: 30 });
    await short.record('erin@example.com', 'passcode', T0);
    expect(await short.isFresh('erin@example.com', at(29_999))).toBe(true);
    expect(await short.isFresh('erin@example.com', at(30_000))).toBe(false);
  });
});
