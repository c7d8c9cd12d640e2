import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_PASSWORD, type TestApp } from '../../../test/app.js';
import { signIn } from '../../../test/oidc-flow.js';
import { ADMIN, callAs } from '../../../test/admin-api.js';
import { meTestApp, nextSecond, type MeTestApp } from '../../../test/me-api.js';
import { LOGIN_RATE_LIMIT } from '../../idp/interaction.routes.js';
import { formAction, injectTransport, TestBrowser } from '../../../test/oidc-test-client.js';
import { passwordStep } from '../../../test/journey.js';

/** GET /metrics: off by default, bearer-protected on the main port, and what the traffic produced. */

const TOKEN = 'metrics-token-0123456789abcdef';

describe('GET /metrics, not configured', () => {
  let t: TestApp;
  beforeAll(async () => (t = await buildTestApp()));
  afterAll(() => t?.close());

  it('is off: 404 JSON, never the SPA', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'route.not_found' });
    expect(res.body).not.toContain('<!doctype html>');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let m: MeTestApp;
  let t: TestApp;
  beforeAll(async () => {
    m = await meTestApp({ METRICS_TOKEN: TOKEN, MFA_LOCKOUT_MAX_FAILURES: '3', MFA_VERIFY_LIMIT_PER_USER: '5' });
    t = m.t;
  });
  afterAll(() => m?.close());
  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.body;
  };
  const value = (body: string, series: string) => {
    const line = body.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };

  it('refuses without the token or with another one (401 JSON)', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'auth.token_missing' });
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'auth.token_invalid' });
  });

  it('counts requests by route pattern (never the raw URL), process and pool metrics', async () => {
    const id = '3f1c0d1e-aaaa-4bbb-8ccc-123456789abc';
    await t.app.inject({ method: 'DELETE', url: `/api/me/devices/${id}` });
    const body = await scrape();
    expect(body).toMatch(/http_request_duration_seconds_count\{method="DELETE",route="\/api\/me\/devices\/:id",status_code="401"\} 1/);
    expect(body).not.toContain(id);
    expect(body).toContain('process_cpu_seconds_total');
    expect(body).toContain('nodejs_eventloop_lag_seconds');
    expect(body).toMatch(/portal_db_pool_max_connections \d+/);
  });

  it('records sign-in steps, second-factor outcomes by method, provider calls, audit appends and API authentications; no user name in a label', async () => {
    const before = await scrape();
    const upn = 'bob@example.com';
    await expect(signIn(t.app, t.config, upn, 'wrong-password-here')).rejects.toThrow();
    // bob has devices: signIn answers the Passcode page with a bypass code it mints through the port.
    const tokens = await signIn(t.app, t.config, upn, TEST_PASSWORD);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me/devices', headers: { authorization: `Bearer ${tokens.access_token}` } }))
        .statusCode,
    ).toBe(200);
    await t.app.inject({ method: 'GET', url: '/api/me/devices', headers: { authorization: 'Bearer nope' } });
    const after = await scrape();

    const delta = (series: string) => value(after, series) - value(before, series);
    expect(delta('portal_sign_in_steps_total{step="password",outcome="failure"}')).toBe(1);
    expect(delta('portal_sign_in_steps_total{step="password",outcome="success"}')).toBe(1);
    expect(delta('portal_sign_in_steps_total{step="second_factor",outcome="success"}')).toBe(1);
    expect(delta('portal_second_factor_verifications_total{purpose="sign_in",method="bypass",outcome="success",reason=""}')).toBe(1);
    expect(delta('portal_audit_appends_total{action="idp.login.password_failed",outcome="failure"}')).toBe(1);
    expect(delta('portal_mfa_provider_call_duration_seconds_count{provider="builtin",operation="verifyPasscode",outcome="ok"}')).toBe(1);
    expect(delta('portal_mfa_provider_call_duration_seconds_count{provider="builtin",operation="createBypassCodes",outcome="ok"}')).toBe(1);
    expect(delta('portal_api_authentications_total{outcome="success"}')).toBe(1);
    expect(delta('portal_api_authentications_total{outcome="auth.token_invalid"}')).toBe(1);
    expect(after).not.toMatch(/bob|example\.com/);
  });

  it('counts failed step-ups by reason, the lockout, the 429 refusal and audit chain verifications', async () => {
    const before = await scrape();
    const who = { upn: 'helpdesk@example.com', roles: [] as string[] };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      // The lockout ends the account's sessions: the last attempt comes from a token issued after it.
      if (i === 3) await nextSecond();
      statuses.push((await callAs(m, who, 'POST', '/api/me/step-up', { method: 'passcode', code: '000000' })).statusCode);
    }
    // Three wrong codes: the third locks the account (403 locked out), and so does the next attempt.
    expect(statuses).toEqual([422, 422, 403, 403]);
    // The sign-in page's per-name limit (shared store): the 11th attempt within the minute is refused.
    const step = await passwordStep(new TestBrowser(injectTransport(t.app)), t.config, 'nobody@example.com', 'wrong-password');
    const action = new URL(formAction((await step.browser.get(step.interaction)).body)!, step.interaction);
    const answers = [step.afterPassword.status];
    for (let i = 0; i < LOGIN_RATE_LIMIT.perUsername.max; i++)
      answers.push((await step.browser.post(action, { username: 'nobody@example.com', password: 'wrong' })).status);
    expect(answers.filter((s) => s === 429)).toHaveLength(1);
    expect((await callAs(m, ADMIN, 'GET', '/api/admin/audit/verify')).statusCode).toBe(200);
    const after = await scrape();
    const delta = (series: string) => value(after, series) - value(before, series);
    expect(delta('portal_lockouts_total{purpose="step_up"}')).toBe(1);
    expect(
      delta('portal_second_factor_verifications_total{purpose="step_up",method="none",outcome="failure",reason="mfa.code_invalid"}'),
    ).toBeGreaterThanOrEqual(2);
    expect(delta('portal_rate_limit_refusals_total{route="/idp/interaction/:uid/login"}')).toBe(1);
    expect(delta('portal_audit_chain_verifications_total{result="ok"}')).toBe(1);
  });
});

describe('GET /metrics on METRICS_PORT', () => {
  let t: TestApp;
  beforeAll(async () => (t = await buildTestApp({ METRICS_PORT: '9565' })));
  afterAll(() => t?.close());

  it('is served by the metrics listener alone (no token set), not by the main port', async () => {
    expect(t.app.metricsServer).not.toBeNull();
    const res = await t.app.metricsServer!.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_request_duration_seconds');
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    // Nothing else lives on the metrics listener.
    expect((await t.app.metricsServer!.inject({ method: 'GET', url: '/api/me/devices' })).statusCode).toBe(404);
  });
});
