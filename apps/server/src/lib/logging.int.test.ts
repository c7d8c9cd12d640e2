import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig, type AppConfig } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { hashPassword } from '../idp/password.js';
import { injectTransport, TestBrowser, tokenRequest } from '../../test/oidc-test-client.js';
import { totpCode } from '../mfa/common/otp.js';
import { makeWebFixture } from '../../test/app.js';
import { createTestDatabase } from '../../test/database.js';
import { clientOf, passwordStep, recordingCookies, redeem, secondFactorStep } from '../../test/journey.js';
import { loggerOptions } from './logging.js';
import type { FastifyInstance } from 'fastify';

/**
 * The log stream of a whole journey, read as an operator would: JSON lines with request ids, route
 * patterns, statuses and durations — and none of the secrets the journey used.
 */

let database: DatabaseHandle;
let config: AppConfig;
let app: FastifyInstance;
let dataDir: string;
let webRoot: string;
const lines: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-logs-'));
  webRoot = makeWebFixture();
  config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'trace', REQUEST_ID_HEADER: 'X-Correlation-Id' });
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  app = await buildApp({ config, database, webRoot, logger: { ...loggerOptions(config), stream } });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(webRoot, { recursive: true, force: true });
});

const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe('request logs', () => {
  it('takes a well-formed request id from the configured header and returns it; replaces a bad one', async () => {
    const given = `corr-${randomBytes(8).toString('hex')}`;
    const res = await app.inject({ method: 'GET', url: '/settings/APIInfo?state=do-not-log', headers: { 'x-correlation-id': given } });
    expect(res.headers['x-correlation-id']).toBe(given);
    const entry = parsed().find((e) => e.reqId === given && e.msg === 'request completed');
    expect(entry).toMatchObject({ route: '/settings/APIInfo', statusCode: 200, req: { method: 'GET', url: '/settings/APIInfo' } });
    expect(typeof entry?.durationMs).toBe('number');
    expect(JSON.stringify(entry)).not.toContain('do-not-log');

    for (const bad of ['short', 'has space in it', 'x'.repeat(200), 'new\nline-injected']) {
      const r = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-correlation-id': bad } });
      expect(r.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('logs the route pattern, never the raw URL with its ids', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/api/me/devices/3f1c0d1e-aaaa-4bbb-8ccc-123456789abc' });
    expect(res.statusCode).toBe(401);
    const id = String(res.headers['x-correlation-id']);
    const entry = parsed().find((e) => e.reqId === id && e.msg === 'request completed');
    expect(entry).toMatchObject({ route: '/api/me/devices/:id', statusCode: 401 });
  });

  it('a full journey (sign-in with password + TOTP, enrolment, step-up, bypass codes, refresh) leaves no secret in the logs', async () => {
    const upn = `log-journey-${randomBytes(4).toString('hex')}@example.com`;
    const password = `Pw-${randomBytes(12).toString('base64url')}`;
    await database.db
      .insertInto('idp_account')
      .values({
        username: upn,
        password_hash: await hashPassword(password),
        email: upn,
        given_name: 'Log',
        family_name: 'Journey',
        roles: [],
      })
      .execute();
    await database.db
      .insertInto('mfa_user')
      .values({ username: upn, email: upn, real_name: 'Log Journey', status: 'active', status_reason: null })
      .execute();
    const { transport, cookieValues } = recordingCookies(injectTransport(app));
    const secrets: Record<string, string> = { password };

    // 1. Password only (no device yet): tokens.
    let browser = new TestBrowser(transport);
    let step = await passwordStep(browser, config, upn, password);
    let signedIn = await redeem(browser, config, step.afterPassword, step.verifier);
    Object.assign(secrets, {
      code1: signedIn.code,
      access1: signedIn.tokens.access_token,
      id1: signedIn.tokens.id_token!,
      refresh1: signedIn.tokens.refresh_token!,
    });
    const api = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      app.inject({
        method,
        url: `/api/me${url}`,
        headers: { authorization: `Bearer ${signedIn.tokens.access_token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });

    // 2. Enrol an authenticator app (secret, otpauth URI, first code).
    const started = await api('POST', '/devices/authenticator');
    expect(started.statusCode, started.body).toBe(201);
    const enrolment = started.json<{ enrolmentId: string; secret: string; otpauthUri: string }>();
    Object.assign(secrets, { totpSecret: enrolment.secret, otpauth: enrolment.otpauthUri });
    const confirmCode = totpCode(enrolment.secret, Date.now() - 30_000);
    const confirmed = await api('POST', `/devices/authenticator/${enrolment.enrolmentId}/confirm`, { code: confirmCode, name: 'Phone' });
    expect(confirmed.statusCode, confirmed.body).toBe(201);

    // 3. Step-up with the next code, then bypass codes (shown once).
    const stepUpCode = totpCode(enrolment.secret, Date.now());
    expect((await api('POST', '/step-up', { method: 'passcode', code: stepUpCode })).statusCode).toBe(200);
    const minted = await api('POST', '/bypass-codes', { count: 2, validitySeconds: 3600 });
    expect(minted.statusCode, minted.body).toBe(201);
    const codes = minted.json<{ codes: { code: string }[] }>().codes.map((c) => c.code);
    codes.forEach((c, i) => (secrets[`bypass${i}`] = c.replace(/\s/g, '')));

    // 4. A wrong code, then password + TOTP at the embedded provider, and a refresh.
    browser = new TestBrowser(transport);
    step = await passwordStep(browser, config, upn, password);
    const signInCode = totpCode(enrolment.secret, Date.now() + 30_000);
    const wrong = signInCode === '000000' ? '111111' : '000000';
    expect((await secondFactorStep(browser, config, step.afterPassword, wrong)).status).toBe(401);
    const answer = await secondFactorStep(browser, config, step.afterPassword, signInCode);
    signedIn = await redeem(browser, config, answer, step.verifier);
    Object.assign(secrets, {
      code2: signedIn.code,
      access2: signedIn.tokens.access_token,
      id2: signedIn.tokens.id_token!,
      refresh2: signedIn.tokens.refresh_token!,
    });
    const refreshed = await tokenRequest(browser, clientOf(config), {
      grant_type: 'refresh_token',
      refresh_token: signedIn.tokens.refresh_token!,
    });
    expect(refreshed.status, refreshed.body).toBe(200);
    const r = JSON.parse(refreshed.body) as { access_token: string; refresh_token?: string };
    secrets.access3 = r.access_token;
    if (r.refresh_token) secrets.refresh3 = r.refresh_token;

    // 5. A bypass code at sign-in.
    browser = new TestBrowser(transport);
    step = await passwordStep(browser, config, upn, password);
    const viaBypass = await secondFactorStep(browser, config, step.afterPassword, codes[0]!);
    expect(viaBypass.status).toBe(303);
    expect((await api('GET', '/devices')).statusCode).toBe(200);

    cookieValues.forEach((v, i) => (secrets[`cookie${i}`] = v));
    // Short TOTP codes (6 digits) could match a number in a log line by chance: looked for where they would be (a field value).
    const sixDigit = [confirmCode, stepUpCode, signInCode];

    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(25);
    expect(text).toContain('request completed');
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThanOrEqual(8);
      expect(text.includes(value), `${name} appears in the logs`).toBe(false);
    }
    for (const code of sixDigit) expect(text).not.toMatch(new RegExp(`"[^"]*":"?\\s*${code}\\s*"?[,}]`));
    // Every completed request has a route pattern and a status; the 401 of the wrong code is there.
    const completed = parsed().filter((e) => e.msg === 'request completed');
    expect(completed.every((e) => typeof e.route === 'string' && typeof e.statusCode === 'number')).toBe(true);
    expect(completed.some((e) => e.route === '/idp/interaction/:uid/verify' && e.statusCode === 401)).toBe(true);
  });
});
