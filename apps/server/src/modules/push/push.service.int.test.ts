import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { createTestDatabase } from '../../../test/database.js';
import { MfaError, type MfaProvider, type PushOptions, type PushState } from '../../mfa/port.js';
import { createPushService, type PushService } from './push.service.js';

/**
 * The push transactions on the database: the provider's id stays on the server, a push is
 * found only for its user, purpose, device and actor, it times out on the portal's clock, and its
 * answer completes it once even when polls race (real PostgreSQL in the server-pg project).
 */

const T0 = new Date('2030-01-01T12:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

/** A provider whose pushes the test answers: records which calls it received. */
function scriptedProvider() {
  const answers = new Map<string, PushState>();
  const calls: string[] = [];
  const options: PushOptions[] = [];
  let numberMatching = false;
  let n = 0;
  const provider = {
    async startPush(username: string, deviceId: string, opts: PushOptions) {
      calls.push(`startPush ${username} ${deviceId}`);
      options.push(opts);
      const txid = `duo-tx-${++n}`;
      answers.set(txid, { state: 'waiting', detail: null });
      return { txid, verificationCode: numberMatching ? '376' : null };
    },
    async pushStatus(username: string, txid: string) {
      calls.push(`pushStatus ${username} ${txid}`);
      const a = answers.get(txid);
      if (!a) throw new MfaError('push_not_found');
      return a;
    },
    async sendVerificationPush(username: string, deviceId: string) {
      calls.push(`sendVerificationPush ${username} ${deviceId}`);
      const pushId = `duo-vp-${++n}`;
      answers.set(pushId, { state: 'waiting', detail: null });
      return { pushId, confirmationCode: '424242' };
    },
    async verificationPushResponse(username: string, pushId: string) {
      calls.push(`verificationPushResponse ${username} ${pushId}`);
      return answers.get(pushId)!;
    },
  };
  return {
    provider: provider as unknown as MfaProvider,
    answers,
    calls,
    options,
    /** The provider's pushes ask for a number on the phone (Verified Duo Push). */
    requireNumberMatching: (on: boolean) => void (numberMatching = on),
  };
}

describe('push service', () => {
  let handle: DatabaseHandle;
  let pushes: PushService;
  let script: ReturnType<typeof scriptedProvider>;
  beforeAll(async () => {
    handle = await createTestDatabase();
    script = scriptedProvider();
    pushes = createPushService(handle.db, script.provider, { timeoutSeconds: 120 });
  });
  afterAll(() => handle.close());

  const answer = (ref: string, state: PushState['state']) => script.answers.set(ref, { state, detail: `Duo says ${state}` });
  const refOf = async (txid: string) =>
    (await handle.db.selectFrom('push_transaction').select('provider_ref').where('id', '=', txid).executeTakeFirstOrThrow()).provider_ref;

  it("hands out the portal's own id, never the provider's", async () => {
    const { push, confirmationCode } = await pushes.start({
      upn: 'Bob@Example.com',
      deviceId: 'd1',
      purpose: 'device_test',
      actorUpn: 'Bob@Example.com',
      now: T0,
    });
    expect(push).toEqual({
      txid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      deviceId: 'd1',
      state: 'waiting',
      startedAt: T0.toISOString(),
      expiresAt: at(120).toISOString(),
      completedAt: null,
    });
    expect(confirmationCode).toBeNull();
    expect(await refOf(push.txid)).toMatch(/^duo-tx-/);
    expect(push.txid).not.toContain('duo');
    expect(script.calls.at(-1)).toBe('startPush bob@example.com d1');
  });

  it('tells the provider what the push is for and where the person is; a number-matching code comes back to show', async () => {
    script.requireNumberMatching(true);
    try {
      const { confirmationCode } = await pushes.start({
        upn: 'bob@example.com',
        deviceId: 'd1',
        purpose: 'device_test',
        actorUpn: 'bob@example.com',
        clientAddress: '192.0.2.7',
        now: T0,
      });
      expect(confirmationCode).toBe('376');
      expect(script.options.at(-1)).toMatchObject({
        purpose: 'device_test',
        ipaddr: '192.0.2.7',
        // What the phone shows: the application asking and where from.
        context: { application: expect.any(String), ipAddress: '192.0.2.7' },
      });
    } finally {
      script.requireNumberMatching(false);
    }
  });

  it('shows its answer only to the sign-in session that started it: an approval grants nothing to another session', async () => {
    const { push } = await pushes.start({
      upn: 'bob@example.com',
      deviceId: 'd1',
      purpose: 'step_up',
      actorUpn: 'bob@example.com',
      session: 'sid:first',
      now: T0,
    });
    answer(await refOf(push.txid), 'approved');
    const notFound = expect.objectContaining({ code: 'push_not_found' });
    await expect(
      pushes.poll({ upn: 'bob@example.com', txid: push.txid, purpose: 'step_up', session: 'sid:second', now: T0 }),
    ).rejects.toEqual(notFound);
    const mine = await pushes.poll({ upn: 'bob@example.com', txid: push.txid, purpose: 'step_up', session: 'sid:first', now: T0 });
    expect(mine).toMatchObject({ justCompleted: true, push: { state: 'approved' } });
  });

  it('finds a push only for its user, purpose and device', async () => {
    const { push } = await pushes.start({
      upn: 'bob@example.com',
      deviceId: 'd1',
      purpose: 'step_up',
      actorUpn: 'bob@example.com',
      now: T0,
    });
    const notFound = expect.objectContaining({ code: 'push_not_found' });
    await expect(pushes.poll({ upn: 'alice@example.com', txid: push.txid, purpose: 'step_up', now: T0 })).rejects.toEqual(notFound);
    await expect(pushes.poll({ upn: 'bob@example.com', txid: push.txid, purpose: 'device_test', now: T0 })).rejects.toEqual(notFound);
    await expect(pushes.poll({ upn: 'bob@example.com', txid: push.txid, purpose: 'step_up', deviceId: 'd2', now: T0 })).rejects.toEqual(
      notFound,
    );
    expect((await pushes.poll({ upn: 'BOB@example.com', txid: push.txid, purpose: 'step_up', now: T0 })).push.state).toBe('waiting');
  });

  it('completes once: the first poll that sees the answer, later polls do not ask the provider again', async () => {
    const { push } = await pushes.start({
      upn: 'bob@example.com',
      deviceId: 'd1',
      purpose: 'device_test',
      actorUpn: 'bob@example.com',
      now: T0,
    });
    answer(await refOf(push.txid), 'denied');
    const first = await pushes.poll({ upn: 'bob@example.com', txid: push.txid, purpose: 'device_test', now: at(5) });
    expect(first).toMatchObject({
      justCompleted: true,
      detail: 'Duo says denied',
      push: { state: 'denied', completedAt: at(5).toISOString() },
    });
    const asked = script.calls.length;
    answer(await refOf(push.txid), 'approved'); // a late change at the provider changes nothing
    const again = await pushes.poll({ upn: 'bob@example.com', txid: push.txid, purpose: 'device_test', now: at(6) });
    expect(again).toMatchObject({ justCompleted: false, push: { state: 'denied' } });
    expect(script.calls.length).toBe(asked);
  });

  it('reads as timed out after the timeout without asking the provider, even if it still waits', async () => {
    const { push } = await pushes.start({
      upn: 'bob@example.com',
      deviceId: 'd1',
      purpose: 'device_test',
      actorUpn: 'bob@example.com',
      now: T0,
    });
    expect((await pushes.poll({ upn: 'bob@example.com', txid: push.txid, purpose: 'device_test', now: at(119) })).push.state).toBe(
      'waiting',
    );
    const asked = script.calls.length;
    const late = await pushes.poll({ upn: 'bob@example.com', txid: push.txid, purpose: 'device_test', now: at(120) });
    expect(late).toMatchObject({ justCompleted: true, push: { state: 'timeout' } });
    expect(script.calls.length).toBe(asked);
  });

  it('counts an approval once when polls race', async () => {
    const { push } = await pushes.start({
      upn: 'bob@example.com',
      deviceId: 'd1',
      purpose: 'step_up',
      actorUpn: 'bob@example.com',
      now: T0,
    });
    answer(await refOf(push.txid), 'approved');
    const polls = await Promise.all(
      Array.from({ length: 8 }, () => pushes.poll({ upn: 'bob@example.com', txid: push.txid, purpose: 'step_up', now: at(3) })),
    );
    expect(polls.filter((p) => p.justCompleted)).toHaveLength(1);
    expect(polls.every((p) => p.push.state === 'approved')).toBe(true);
  });

  it('keeps about a day of each person’s pushes: a new push forgets their pushes of more than a day ago, and nobody else’s', async () => {
    const dayAgo = (s: number) => new Date(T0.getTime() + 10 * 86_400_000 + s * 1000);
    const start = (upn: string, now: Date) => pushes.start({ upn, deviceId: 'd9', purpose: 'device_test', actorUpn: upn, now });
    const old = await start('keep@example.com', dayAgo(-86_401));
    const recent = await start('keep@example.com', dayAgo(-86_399));
    const other = await start('other@example.com', dayAgo(-90_000));
    await start('keep@example.com', dayAgo(0));
    const ids = (await handle.db.selectFrom('push_transaction').select('id').execute()).map((r) => r.id);
    expect(ids).not.toContain(old.push.txid);
    expect(ids).toContain(recent.push.txid);
    expect(ids).toContain(other.push.txid);
  });

  it('verification pushes carry the confirmation code and belong to the administrator who sent them', async () => {
    const { push, confirmationCode } = await pushes.start({
      upn: 'bob@example.com',
      deviceId: 'd1',
      purpose: 'admin_verify_identity',
      actorUpn: 'Helpdesk@example.com',
      now: T0,
    });
    expect(confirmationCode).toBe('424242');
    const poll = (actorUpn: string) =>
      pushes.poll({ upn: 'bob@example.com', txid: push.txid, purpose: 'admin_verify_identity', actorUpn, now: at(1) });
    await expect(poll('admin@example.com')).rejects.toMatchObject({ code: 'push_not_found' });
    answer(await refOf(push.txid), 'approved');
    expect(await poll('helpdesk@example.com')).toMatchObject({ justCompleted: true, push: { state: 'approved' } });
    expect(script.calls.at(-1)).toMatch(/^verificationPushResponse bob@example.com duo-vp-/);
  });
});
