import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MfaProvider } from '../../src/mfa/port.js';
import { MfaError } from '../../src/mfa/port.js';
import type { DuoStandin } from './duo-standin.js';
import { providerFor, seedDemoStaff, startStandin } from './support.js';

/** The Duo adapter's answers to the administration operations of the port. */

let standin: DuoStandin;
let duo: MfaProvider;

beforeAll(async () => {
  // Two users a page: the user list is always several pages long.
  standin = await startStandin({ maxLimit: 2 });
  seedDemoStaff(standin);
  ({ provider: duo } = providerFor(standin, { pageSize: 100 }));
});
afterAll(() => standin.close());

describe('Duo adapter, search', () => {
  it('finds users by part of their username, email, real name or alias, reading every page of Duo’s list', async () => {
    const pagesBefore = standin.requestsTo('GET', /^\/admin\/v1\/users$/).length;
    expect(await duo.searchUsers('BROWN', { limit: 20 })).toEqual({
      users: [{ username: 'bob@example.com', email: 'bob@example.com', realName: 'Bob Brown', status: 'active' }],
      nextCursor: null,
    });
    // Five users two by two: three pages, offsets 0, 2, 4.
    expect(
      standin
        .requestsTo('GET', /^\/admin\/v1\/users$/)
        .slice(pagesBefore)
        .map((r) => r.params.offset),
    ).toEqual(['0', '2', '4']);
    standin.addUser({ username: 'x9@corp.example', realname: 'Eve', aliases: ['eve.alias@example.com'] });
    expect((await duo.searchUsers('eve.alias', { limit: 20 })).users.map((u) => u.username)).toEqual(['x9@corp.example']);
    expect(await duo.searchUsers('nobody-at-all', { limit: 20 })).toEqual({ users: [], nextCursor: null });
  });

  it('pages its own answer by username with a cursor, and maps statuses', async () => {
    const first = await duo.searchUsers('example.com', { limit: 2 });
    expect(first.users.map((u) => u.username)).toEqual(['admin@example.com', 'alice@example.com']);
    expect(first.nextCursor).toBe('alice@example.com');
    const second = await duo.searchUsers('example.com', { limit: 2, cursor: first.nextCursor! });
    expect(second.users.map((u) => [u.username, u.status])).toEqual([
      ['bob@example.com', 'active'],
      ['disabled@example.com', 'disabled'],
    ]);
    const third = await duo.searchUsers('example.com', { limit: 2, cursor: second.nextCursor! });
    expect(third.users.map((u) => u.username)).toEqual(['helpdesk@example.com', 'x9@corp.example']);
    expect(third.nextCursor).toBeNull();
  });
});

describe('Duo adapter, unlock', () => {
  it('ends a lockout with Modify User (status=active, form parameters, signed v2)', async () => {
    const locked = standin.addUser({ username: 'locked@example.com', status: 'locked out', lockoutReason: 'Failed Attempts' });
    standin.addToken({ serial: 'LOCKED-1', userId: locked.user_id });
    expect(await duo.getAccount('locked@example.com')).toMatchObject({ status: 'locked_out', statusReason: 'Failed Attempts' });
    expect(await duo.unlockUser('LOCKED@example.com')).toEqual({ status: 'active', statusReason: null, lockedUntil: null, deviceCount: 1 });
    expect(standin.user('locked@example.com')).toMatchObject({ status: 'active', lockout_reason: null });
    expect(standin.requestsTo('POST', new RegExp(`^/admin/v1/users/${locked.user_id}$`)).at(-1)).toMatchObject({
      params: { status: 'active' },
      contentType: 'application/x-www-form-urlencoded',
      signatureVersion: 2,
      status: 200,
    });
  });

  it('leaves a disabled or bypass user as they are (Duo not asked to change anything); not provisioned: refused', async () => {
    const posts = () => standin.requests.filter((r) => r.method === 'POST' && /^\/admin\/v1\/users\/[A-Z0-9]+$/.test(r.path)).length;
    const before = posts();
    expect(await duo.unlockUser('disabled@example.com')).toMatchObject({ status: 'disabled' });
    standin.addUser({ username: 'bypassing@example.com', status: 'bypass' });
    expect(await duo.unlockUser('bypassing@example.com')).toMatchObject({ status: 'bypass' });
    expect(await duo.unlockUser('bob@example.com')).toMatchObject({ status: 'active', deviceCount: 2 });
    expect(posts()).toBe(before);
    expect(standin.user('disabled@example.com').status).toBe('disabled');
    const err = await duo.unlockUser('nomfa@example.com').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MfaError);
    expect(err).toMatchObject({ code: 'not_provisioned' });
  });
});
