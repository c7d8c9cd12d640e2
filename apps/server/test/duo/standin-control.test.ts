import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuoStandin } from './duo-standin.js';
import { startStandinControl, type StandinControl } from './standin-control.js';

/** The stand-in's loopback control endpoint the end-to-end journeys on Duo answer pushes with. */
describe('stand-in control endpoint', () => {
  const standin = new DuoStandin();
  let control: StandinControl;
  const user = standin.addUser({ username: 'bob@example.com' });
  const phone = standin.addPhone({ userId: user.user_id, number: '+15555550123', name: 'iPhone 15', activated: true });
  const fresh = standin.addPhone({ userId: user.user_id, number: '+12015550188', name: 'New phone' });

  beforeAll(async () => {
    control = await startStandinControl(standin);
  });
  afterAll(() => control.close());

  const call = (method: string, path: string, body?: unknown, token = control.token) =>
    fetch(`${control.url}${path}`, {
      method,
      headers: { 'x-standin-control': token, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('listens on loopback only and answers nothing without its token', async () => {
    expect(control.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    standin.pushes.set('tx-1', {
      txid: 'tx-1',
      user_id: user.user_id,
      phone_id: phone.phone_id,
      state: 'waiting',
      verificationCode: null,
      type: 'Check this phone',
      displayUsername: 'bob@example.com',
      pushinfo: 'from=portal',
      ipaddr: '127.0.0.1',
    });
    for (const token of ['', 'wrong', `${control.token}x`]) {
      expect((await call('GET', '/users/bob@example.com/pushes', undefined, token)).status).toBe(404);
      expect((await call('POST', '/pushes/tx-1', { state: 'allow' }, token)).status).toBe(404);
    }
    expect(standin.pushes.get('tx-1')!.state).toBe('waiting');
  });

  it('lists a user’s pushes and answers one as the phone would', async () => {
    const list = await call('GET', '/users/bob%40example.com/pushes');
    expect(await list.json()).toEqual([
      {
        txid: 'tx-1',
        phone: 'iPhone 15',
        state: 'waiting',
        verified: false,
        type: 'Check this phone',
        displayUsername: 'bob@example.com',
        pushinfo: 'from=portal',
        ipaddr: '127.0.0.1',
      },
    ]);
    expect((await call('POST', '/pushes/tx-1', { state: 'maybe' })).status).toBe(400);
    expect((await call('POST', '/pushes/tx-nope', { state: 'allow' })).status).toBe(404);
    expect((await call('POST', '/pushes/tx-1', { state: 'deny' })).status).toBe(204);
    expect(standin.pushes.get('tx-1')!.state).toBe('deny');
  });

  it('answers verification pushes, and activates a phone (the QR code scanned)', async () => {
    standin.verificationPushes.set('pv1', {
      push_id: 'pv1',
      user_id: user.user_id,
      phone_id: phone.phone_id,
      confirmation_code: '123456',
      result: 'waiting',
    });
    expect(await (await call('GET', '/users/bob@example.com/verification-pushes')).json()).toEqual([
      { pushId: 'pv1', phone: 'iPhone 15', confirmationCode: '123456', result: 'waiting' },
    ]);
    expect((await call('POST', '/verification-pushes/pv1', { result: 'approve' })).status).toBe(204);
    expect(standin.verificationPushes.get('pv1')!.result).toBe('approve');

    expect(fresh.capabilities).not.toContain('push');
    expect((await call('POST', `/phones/${fresh.phone_id}/activate`)).status).toBe(204);
    expect(standin.phones.get(fresh.phone_id)!.capabilities).toContain('push');
    const phones = (await (await call('GET', '/users/bob@example.com/phones')).json()) as Array<{ name: string; activated: boolean }>;
    expect(phones.map((p) => [p.name, p.activated])).toEqual([
      ['iPhone 15', true],
      ['New phone', true],
    ]);
    expect((await call('GET', '/users/nobody@example.com/phones')).status).toBe(404);
  });
});
