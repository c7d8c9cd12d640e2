import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formAction, TestBrowser, tlsTransport, type HttpResponse } from './oidc-test-client.js';
import { loadConfig } from '../src/config.js';
import { LOGIN_RATE_LIMIT } from '../src/idp/interaction.routes.js';
import { totpCode } from '../src/mfa/common/otp.js';
import { passwordStep, redeem, secondFactorStep } from './journey.js';
import { PROCESS_MFA_SECRETS_KEY, SERVER_START_MS, startServer, type ServerProcess } from './server-process.js';
import { createThrowawayPostgres, throwawayPostgresUnavailable, type ThrowawayPostgres } from './throwaway-postgres.js';
import { freePort } from './support/free-port.js';

/**
 * Two server processes on one PostgreSQL (a throw-away cluster of this test), as behind a load
 * balancer without sticky sessions: what one instance starts or counts, the other continues or honours.
 */

const unavailable = throwawayPostgresUnavailable();
const A = await freePort();
const B = await freePort();
const PASSWORD = 'several-instances-pw';
const env = (cluster: ThrowawayPostgres) => ({
  DATABASE_URL: cluster.url,
  PUBLIC_URL: `https://localhost:${A}/`,
  DEMO_PASSWORD: PASSWORD,
  MFA_SECRETS_KEY: PROCESS_MFA_SECRETS_KEY,
  MFA_LOCKOUT_MAX_FAILURES: '3',
});
const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: `https://localhost:${A}/`, DATA_DIR: '/tmp' });

let cluster: ThrowawayPostgres | undefined;
const servers: ServerProcess[] = [];

async function api(port: number, token: string, method: string, path: string, body?: unknown): Promise<HttpResponse> {
  return tlsTransport(port)({
    method,
    url: new URL(path, config.publicUrl),
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe.skipIf(unavailable !== null)(`two instances on one PostgreSQL${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    cluster = createThrowawayPostgres(await freePort());
    cluster.start();
    // One after the other: the first migrates and seeds the demo staff.
    servers.push(startServer(A, env(cluster)));
    await servers[0]!.waitFor(/is running at/, SERVER_START_MS);
    servers.push(startServer(B, env(cluster)));
    await servers[1]!.waitFor(/is running at/, SERVER_START_MS);
  }, 540_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    cluster?.destroy();
  });

  const upn = 'alice@example.com';
  let token = '';
  let secret = '';

  it('redeems on B the code of a sign-in that started on A; an enrolment started on A is confirmed on B', async () => {
    const onA = new TestBrowser(tlsTransport(A));
    const step = await passwordStep(onA, config, upn, PASSWORD);
    const { tokens } = await redeem(onA.withTransport(tlsTransport(B)), config, step.afterPassword, step.verifier);
    token = tokens.access_token;

    const started = await api(A, token, 'POST', '/api/me/devices/authenticator');
    expect(started.status, started.body).toBe(201);
    const enrolment = JSON.parse(started.body) as { enrolmentId: string; secret: string };
    secret = enrolment.secret;
    const confirmed = await api(B, token, 'POST', `/api/me/devices/authenticator/${enrolment.enrolmentId}/confirm`, {
      code: totpCode(secret, Date.now() - 30_000),
      name: 'Phone app',
    });
    expect(confirmed.status, confirmed.body).toBe(201);
  }, 60_000);

  it('honours on B a step-up granted on A', async () => {
    expect((await api(B, token, 'POST', '/api/me/bypass-codes', { count: 1, validitySeconds: 600 })).status).toBe(403);
    const stepUp = await api(A, token, 'POST', '/api/me/step-up', { method: 'passcode', code: totpCode(secret, Date.now()) });
    expect(stepUp.status, stepUp.body).toBe(200);
    expect(JSON.parse((await api(B, token, 'GET', '/api/me/step-up')).body)).toMatchObject({ active: true });
    const minted = await api(B, token, 'POST', '/api/me/bypass-codes', { count: 1, validitySeconds: 600 });
    expect(minted.status, minted.body).toBe(201);
  }, 60_000);

  it('finishes on B (second factor) and A (token) a sign-in whose password was given on A', async () => {
    const onA = new TestBrowser(tlsTransport(A));
    const step = await passwordStep(onA, config, upn, PASSWORD);
    const onB = onA.withTransport(tlsTransport(B));
    const answer = await secondFactorStep(onB, config, step.afterPassword, totpCode(secret, Date.now() + 30_000));
    expect(answer.status, answer.body.slice(0, 300)).toBe(303);
    const { tokens } = await redeem(onB.withTransport(tlsTransport(A)), config, answer, step.verifier);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ upn, amr: ['pwd', 'mfa'] });
  }, 60_000);

  it('holds the sign-in rate limit across both: attempts split between A and B are counted together', async () => {
    const name = 'nobody-several@example.com';
    const onA = new TestBrowser(tlsTransport(A));
    const step = await passwordStep(onA, config, name, 'wrong-1');
    expect(step.afterPassword.status).toBe(401);
    const action = new URL(formAction((await onA.get(step.interaction)).body)!, step.interaction);
    const onB = onA.withTransport(tlsTransport(B));
    const statuses: number[] = [];
    // 10 allowed per minute in all; neither instance alone sees more than 6.
    for (let i = 2; i <= LOGIN_RATE_LIMIT.perUsername.max + 1; i++) {
      statuses.push((await (i % 2 ? onA : onB).post(action, { username: name, password: `wrong-${i}` })).status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  }, 60_000);

  it('holds a lockout across both: failures on A and B lock the account on both', async () => {
    const wrong = (port: number) => api(port, token, 'POST', '/api/me/step-up', { method: 'passcode', code: '000000' });
    expect((await wrong(A)).status).toBe(422);
    expect((await wrong(B)).status).toBe(422);
    const third = await wrong(A);
    expect(third.status).toBe(403);
    expect(JSON.parse(third.body)).toMatchObject({ code: 'mfa.user_locked_out' });
    // The lockout ended the account's sessions on every instance: the same token is refused on the other.
    const right = await api(B, token, 'POST', '/api/me/step-up', { method: 'passcode', code: totpCode(secret, Date.now() + 30_000) });
    expect(right.status).toBe(401);
    expect(JSON.parse(right.body)).toMatchObject({ code: 'auth.token_expired' });
    // And a new sign-in is refused while the lockout lasts, whichever instance it starts on.
    const onB = new TestBrowser(tlsTransport(B));
    const step = await passwordStep(onB, config, upn, PASSWORD);
    await expect(redeem(onB, config, step.afterPassword, step.verifier)).rejects.toThrow();
  }, 60_000);

  it('refuses on B a token signed out on A (sign-out revokes on every instance)', async () => {
    // carol has no device: her password alone signs her in.
    const onA = new TestBrowser(tlsTransport(A));
    const step = await passwordStep(onA, config, 'carol@example.com', PASSWORD);
    token = (await redeem(onA, config, step.afterPassword, step.verifier)).tokens.access_token;
    expect((await api(B, token, 'GET', '/api/me/devices')).status).not.toBe(401);
    const out = await api(A, token, 'POST', '/api/me/sign-out');
    expect(out.status, out.body).toBe(204);
    // B hears of it through the change feed (a notification that may still be on its way on a busy machine).
    await expect.poll(async () => (await api(B, token, 'GET', '/api/me/devices')).status, { timeout: 10_000 }).toBe(401);
    const after = await api(B, token, 'GET', '/api/me/devices');
    expect(JSON.parse(after.body)).toMatchObject({ code: 'auth.token_expired' });
  }, 60_000);
});
