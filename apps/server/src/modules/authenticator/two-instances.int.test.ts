import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activateResponseSchema, authenticatorActivationSchema, pendingPushRequestsSchema } from '@mfa-portal/shared';
import { buildTestApp, type TestApp } from '../../../test/app.js';
import { createTestDatabase } from '../../../test/database.js';
import { addUser, meTestApp, type MeTestApp } from '../../../test/me-api.js';
import { PROCESS_MFA_SECRETS_KEY } from '../../../test/server-process.js';
import type { DatabaseHandle } from '../../db/database.js';
import { readEvents, softwareDevice, type SoftwareDevice } from './test/software-device.js';

/**
 * Two instances on one PostgreSQL database, as behind a load balancer: a push started on A is
 * answered through B, and the browser waiting on A hears it over SSE (the change feed carries it).
 * PostgreSQL only: PGlite is one process's database.
 */

const UPN = 'twice@example.com';
const API = '/authenticator/api';
const env = { MFA_SECRETS_KEY: PROCESS_MFA_SECRETS_KEY };
let database: DatabaseHandle;
let a: MeTestApp;
let b: TestApp;
let phone: SoftwareDevice;
let baseA = '';

const onPostgres = !!process.env.TEST_DATABASE_URL;

describe.skipIf(!onPostgres)('two instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    a = await meTestApp(env, { database });
    b = await buildTestApp(env, { database, seed: false });
    await addUser(database.db, UPN);
    await a.t.app.listen({ host: '127.0.0.1', port: 0 });
    baseA = `http://127.0.0.1:${(a.t.app.server.address() as AddressInfo).port}`;
    const started = await a.call(UPN, 'POST', '/devices/authenticator-app');
    const token = authenticatorActivationSchema.parse(started.json()).activationUrl.split('#activate=')[1]!;
    phone = await softwareDevice();
    // The activation link made on A is used through B.
    const res = await b.app.inject({
      method: 'POST',
      url: `${API}/activate`,
      payload: { token, publicKey: phone.publicKey, platform: 'android', deviceName: 'Pixel 8' },
    });
    expect(res.statusCode, res.body).toBe(201);
    phone.deviceId = activateResponseSchema.parse(res.json()).deviceId;
  }, 120_000);
  afterAll(async () => {
    a?.t.app.server.closeAllConnections();
    await b?.close();
    await a?.close();
    await database?.close();
  });

  it('tells the browser waiting on A when the push started on A is approved through B', async () => {
    const started = await a.call(UPN, 'POST', `/devices/${phone.deviceId}/push`);
    expect(started.statusCode, started.body).toBe(202);
    const { txid, verificationCode } = started.json<{ txid: string; verificationCode: string }>();
    const browser = await readEvents(`${baseA}/api/me/push/${txid}/events`, { authorization: `Bearer ${await a.token(UPN)}` });
    expect(browser.status).toBe(200);
    const list = await b.app.inject({
      url: `${API}/requests`,
      headers: { authorization: await phone.authorization('GET', `${API}/requests`) },
    });
    const [request] = pendingPushRequestsSchema.parse(list.json()).requests;
    const sentAt = Date.now();
    const answered = await b.app.inject({
      method: 'POST',
      url: `${API}/requests/${request!.id}/answer`,
      headers: { authorization: await phone.authorization('POST', `${API}/requests/${request!.id}/answer`) },
      payload: await phone.answer(request!.id, 'approve', verificationCode),
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(await browser.waitFor(1, 5000)).toEqual([{ event: 'state', data: { state: 'approved' } }]);
    // Well within a second: the change feed, not the one-second poll's worst case.
    expect(Date.now() - sentAt).toBeLessThan(3000);
    const status = await a.call(UPN, 'GET', `/devices/${phone.deviceId}/push/${txid}`);
    expect(status.json()).toMatchObject({ state: 'approved' });
    await browser.close();
  });
});
