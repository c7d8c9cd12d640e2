import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duoAdminApi } from '../../src/mfa/duo/admin-api.js';
import { duoAuthApi } from '../../src/mfa/duo/auth-api.js';
import { createDuoProvider } from '../../src/mfa/duo/duo-provider.js';
import { portalIdOf } from '../../src/mfa/duo/ids.js';
import type { MfaProvider } from '../../src/mfa/port.js';
import type { DuoStandin } from './duo-standin.js';
import { clientsFor, seedDemoStaff, startStandin } from './support.js';

/**
 * Duo holds `/auth/v2/auth_status` until the push is answered or expires (a long-poll). The adapter's
 * ordinary time-out per request is lowered to 200 ms here, so "longer than a request may take" is
 * a fraction of a second of wall time, and the stand-in's clock is moved instead of waiting for it.
 */

const REQUEST_TIMEOUT_MS = 200;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let standin: DuoStandin;
let seed: ReturnType<typeof seedDemoStaff>;

function provider(extra: { pushLifetimeSeconds?: number; pushStatusMarginMs?: number } = {}): MfaProvider {
  const { admin, auth } = clientsFor(standin, { timeoutMs: REQUEST_TIMEOUT_MS });
  return createDuoProvider({ admin: duoAdminApi(admin), auth: duoAuthApi(auth), ...extra });
}

const statusCalls = () => standin.requestsTo('GET', /^\/auth\/v2\/auth_status$/).length;

beforeAll(async () => {
  standin = await startStandin({ pushLifetimeSeconds: 60 });
  seed = seedDemoStaff(standin);
});
afterAll(() => standin.close());

describe('auth_status long-polls', () => {
  it('a push answered 45 s (stand-in time) after it was sent ends approved, not as an outage', async () => {
    const duo = provider();
    const { txid } = await duo.startPush('bob@example.com', portalIdOf('phone', seed.bobPhone.phone_id), { purpose: 'step_up' });
    expect(await duo.pushStatus('bob@example.com', txid)).toMatchObject({ state: 'waiting' });
    const before = statusCalls();

    const started = Date.now();
    const status = duo.pushStatus('bob@example.com', txid);
    // Longer than one request may take: Duo is still holding the answer.
    await pause(REQUEST_TIMEOUT_MS * 3);
    standin.advanceClock(45_000);
    await pause(50);
    standin.answerPush(txid, 'allow');

    expect(await status).toMatchObject({ state: 'approved' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS * 3);
    // One held request, never retried.
    expect(statusCalls() - before).toBe(1);
  });

  it('a push nobody answers ends as timeout when it expires at Duo', async () => {
    const duo = provider();
    const { txid } = await duo.startPush('bob@example.com', portalIdOf('phone', seed.bobPhone.phone_id), { purpose: 'step_up' });
    expect(await duo.pushStatus('bob@example.com', txid)).toMatchObject({ state: 'waiting' });
    const status = duo.pushStatus('bob@example.com', txid);
    await pause(REQUEST_TIMEOUT_MS * 2);
    standin.advanceClock(61_000);
    expect(await status).toMatchObject({ state: 'timeout' });
  });

  it('past the push’s lifetime and margin the adapter stops waiting: "waiting", one request, no error', async () => {
    const duo = provider({ pushLifetimeSeconds: 0.3, pushStatusMarginMs: 100 });
    const { txid } = await duo.startPush('bob@example.com', portalIdOf('phone', seed.bobPhone.phone_id), { purpose: 'step_up' });
    expect(await duo.pushStatus('bob@example.com', txid)).toMatchObject({ state: 'waiting' });
    const before = statusCalls();
    const started = Date.now();
    expect(await duo.pushStatus('bob@example.com', txid)).toEqual({ state: 'waiting', detail: null });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(statusCalls() - before).toBe(1);
    standin.answerPush(txid, 'deny');
    expect(await duo.pushStatus('bob@example.com', txid)).toMatchObject({ state: 'denied' });
  });
});
