import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duoAdminApi } from '../../src/mfa/duo/admin-api.js';
import type { DuoRetryEvent } from '../../src/mfa/duo/client.js';
import type { DuoStandin } from './duo-standin.js';
import { clientsFor, startStandin } from './support.js';

/**
 * Duo throttles with 429 and names the wait in Retry-After or X-Retry-After; the client backs off as
 * Duo's clients do. Sleeps are recorded, not slept (support.ts), so 30 s of backing off takes no time.
 */

let standin: DuoStandin;

beforeAll(async () => {
  standin = await startStandin({ maxLimit: 2 });
  for (let i = 0; i < 5; i += 1) standin.addUser({ username: `user${i}@example.com` });
});
afterAll(() => standin.close());

describe('a throttled directory walk', () => {
  it('backs off 1 s, 2 s, …, honours X-Retry-After and Retry-After, is metered, and completes', async () => {
    const retries: DuoRetryEvent[] = [];
    const { admin, waits } = clientsFor(standin, {
      random: () => 0,
      retry: { maxAttempts: 6, maxTotalWaitMs: 60_000 },
      onRetry: (r) => retries.push(r),
    });
    const api = duoAdminApi(admin);
    // The first page twice throttled without a wait named, the second page once with X-Retry-After: 9.
    standin.failNext({ times: 2, status: 429, method: 'GET', path: /^\/admin\/v1\/users$/ });
    const seen: string[] = [];
    let page = 0;
    await api.eachUserPage(
      async (users) => {
        seen.push(...users.map((u) => u.username));
        page += 1;
        if (page === 1) standin.failNext({ times: 1, status: 429, method: 'GET', path: /^\/admin\/v1\/users$/, xRetryAfter: '9' });
        if (page === 2) standin.failNext({ times: 1, status: 429, method: 'GET', path: /^\/admin\/v1\/users$/, retryAfter: '4' });
      },
      async () => undefined,
    );
    expect(seen).toHaveLength(5);
    expect(waits).toEqual([1000, 2000, 9000, 4000]);
    expect(retries.map((r) => [r.kind, r.status, r.waitMs])).toEqual([
      ['rate_limited', 429, 1000],
      ['rate_limited', 429, 2000],
      ['rate_limited', 429, 9000],
      ['rate_limited', 429, 4000],
    ]);
    const statuses = standin.requestsTo('GET', /^\/admin\/v1\/users$/).map((r) => r.status);
    expect(statuses).toEqual([429, 429, 200, 429, 200, 429, 200]);
  });

  it('throttled past the budget: a stable 503 mfa.provider_rate_limited with Retry-After', async () => {
    const { admin, waits } = clientsFor(standin, { random: () => 0, retry: { maxAttempts: 10, maxTotalWaitMs: 10_000 } });
    standin.failNext({ times: 100, status: 429, method: 'GET', path: /^\/admin\/v1\/users$/ });
    const err = await duoAdminApi(admin)
      .listUsers()
      .then(
        () => null,
        (e: unknown) => e,
      );
    standin.clearFaults();
    expect(err).toMatchObject({ code: 'mfa.provider_rate_limited', statusCode: 503 });
    // 1 + 2 + 4 s, then 8 s no longer fits the 10 s budget.
    expect(waits).toEqual([1000, 2000, 4000]);
  });
});
