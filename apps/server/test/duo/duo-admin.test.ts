import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/errors.js';
import type { DuoMfaProvider } from '../../src/mfa/duo/duo-provider.js';
import type { DuoStandin } from './duo-standin.js';
import { providerFor, seedDemoStaff, startStandin } from './support.js';

/** The Duo adapter's answers to the administration operations of the port (issue 5). */

let standin: DuoStandin;
let duo: DuoMfaProvider;

beforeAll(async () => {
  standin = await startStandin();
  seedDemoStaff(standin);
  ({ provider: duo } = providerFor(standin, { pageSize: 100 }));
});
afterAll(() => standin.close());

describe('Duo adapter, administration', () => {
  it('finds a user by exact username (Duo looks users up by username, not by part of a name)', async () => {
    expect(await duo.searchUsers('bob@example.com', { limit: 20 })).toEqual({
      users: [{ username: 'bob@example.com', email: expect.any(String), realName: 'Bob Brown', status: 'active' }],
      nextCursor: null,
    });
    expect(await duo.searchUsers('bob', { limit: 20 })).toEqual({ users: [], nextCursor: null });
  });

  it('answers mfa.not_supported_by_provider (409) to unlock: done in the Duo Admin Panel', async () => {
    const err = await duo.unlockUser('bob@example.com').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ statusCode: 409, code: 'mfa.not_supported_by_provider' });
  });
});
