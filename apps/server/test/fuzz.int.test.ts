import fc from 'fast-check';
import { sessionKeyOf } from '../src/auth/token-verifier.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@mfa-portal/shared';
import { ADMIN, BOB, HELPDESK } from './admin-api.js';
import { encodeComponent, hostileString, rawBody, toJsonText, hostileJson } from './fuzz/arbitraries.js';
import { documentedRoutes, type DocRoute } from './fuzz/openapi-routes.js';
import { requestArb, type FuzzRequest, type FuzzTargets } from './fuzz/requests.js';
import { changedSince, snapshotState } from './fuzz/state.js';
import { TestBrowser, authorizeUrl, formAction, injectTransport, location, pkce } from './oidc-test-client.js';
import { scimTestApp, SCIM_TOKEN, type ScimTestApp } from './scim-api.js';

/**
 * The fuzz suite (issue 14): generated malformed paths, query strings, bodies and headers sent to
 * every route of the published OpenAPI document, as nobody, as staff, as helpdesk and as a Solution
 * Administrator; to the SCIM endpoints; and to the identity provider's sign-in form. Whatever comes
 * in: never a 5xx, the error shape for every 4xx, and a refused request changes no row and no
 * existing audit event. `FUZZ_RUNS` sets the runs per property (`npm run fuzz` runs many more).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const params = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true } as const;

let s: ScimTestApp;
let routes: DocRoute[];
let targets: FuzzTargets;

beforeAll(async () => {
  s = await scimTestApp();
  routes = await documentedRoutes(s.t.app);
  const ids = (await s.db.selectFrom('mfa_device').select('id').execute()).map((r) => r.id);
  targets = { upns: ['bob@example.com', 'grace@example.com', 'alice@example.com', 'admin@example.com', 'helpdesk@example.com'], ids };
  // Recent step-ups of the callers' sessions (the test tokens' `sid`), so a change gets past "confirm it
  // is you" and reaches its validation and storage.
  const now = new Date();
  const issuer = s.t.config.idp.mode === 'embedded' ? s.t.config.idp.issuer : '';
  await s.db
    .insertInto('step_up')
    .values(
      [BOB, HELPDESK, ADMIN].map((who) => ({
        upn: who.upn,
        method: 'passcode' as const,
        verified_at: now,
        session_key: sessionKeyOf('sid', `${issuer}|test-session-${who.upn}`),
      })),
    )
    .execute();
}, 120_000);
afterAll(() => s?.close());

/** Sends one request; returns a description of what broke, or null. */
async function check(
  req: FuzzRequest,
  shape: (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => string | null,
) {
  const before = await snapshotState(s.db);
  const res = await s.t.app.inject({
    method: req.method as 'GET',
    url: req.url,
    headers: req.headers,
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
  });
  const what = `${req.method} ${req.url.slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  if (res.statusCode >= 500) return `5xx: ${what}`;
  if (res.statusCode >= 400) {
    const bad = shape(res);
    if (bad) return `${bad}: ${what}`;
    // A wrong code is refused and counted, by design: it moves the user's failure count and, at the
    // threshold, locks the account and ends its sessions (and the grants they held).
    const code = (() => {
      try {
        return (JSON.parse(res.body) as { code?: unknown }).code;
      } catch {
        return undefined;
      }
    })();
    const counted = ['mfa.code_invalid', 'mfa.code_replayed', 'mfa.user_locked_out'].includes(String(code));
    const changed = await changedSince(
      s.db,
      before,
      counted ? ['mfa_user', 'session_revocation', 'step_up', 'enrolment_pass', 'oidc_payload'] : [],
    );
    if (changed.length) return `refused but changed ${changed.join(', ')}: ${what}`;
  }
  return null;
}

const apiShape = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) return 'not JSON';
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(res.body));
    return parsed.success ? null : 'not the error shape';
  } catch {
    return 'not JSON';
  }
};

const scimShape = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
  try {
    const body = JSON.parse(res.body) as { schemas?: unknown; status?: unknown };
    return Array.isArray(body.schemas) && body.status === String(res.statusCode) ? null : 'not a SCIM error';
  } catch {
    return 'not JSON';
  }
};

describe('fuzzing every route of the OpenAPI document', () => {
  const callers = [
    ['nobody', null],
    ['staff', BOB],
    ['helpdesk', HELPDESK],
    ['a Solution Administrator', ADMIN],
  ] as const;

  it('lists the routes it fuzzes', () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  for (const [name, who] of callers) {
    it(`as ${name}: never a 5xx, always the error shape, nothing changed by a refusal`, async () => {
      const token = who ? await s.token(who.upn, who.roles) : null;
      const arb = fc.constantFrom(...routes).chain((route) => requestArb(route, targets, token));
      await fc.assert(
        fc.asyncProperty(arb, async (req) => {
          const problem = await check(req, apiShape);
          expect(problem).toBeNull();
        }),
        params,
      );
    }, 600_000);
  }

  it('answers unknown /api routes, methods and malformed addresses with the error shape', async () => {
    const arb = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
      path: fc.oneof(
        hostileString.filter((p) => p.length < 300).map((p) => `/api/${encodeComponent(p)}`),
        fc.constantFrom('/api/%', '/api/me/%E0', '/api/admin/users/%ED%A0%80/devices'),
      ),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ method, path }) => {
        expect(await check({ method, url: path, headers: {} }, apiShape)).toBeNull();
      }),
      params,
    );
  }, 600_000);
});

describe('fuzzing the SCIM endpoints', () => {
  const paths = ['/Users', '/Groups', '/Users/{id}', '/Groups/{id}', '/Schemas', '/ResourceTypes', '/ServiceProviderConfig', '/Bulk'];
  it('never a 5xx, always a SCIM error, nothing changed by a refusal', async () => {
    const arb = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
      path: fc.constantFrom(...paths),
      id: fc.oneof(
        fc.uuid(),
        hostileString.filter((x) => x.length < 300),
      ),
      filter: fc.option(
        fc.oneof(
          hostileString.filter((x) => x.length < 1000),
          hostileString.filter((x) => x.length < 200).map((v) => `userName eq "${v.replaceAll('"', '')}"`),
          fc.constantFrom('userName eq', '((((((', 'emails[type eq "work"].value co "@"', 'not (active pr)'),
        ),
      ),
      body: fc.oneof(
        hostileJson.map(toJsonText),
        rawBody,
        fc
          .tuple(hostileString, hostileJson)
          .map(([userName, name]) => toJsonText({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName, name, active: true })),
      ),
      token: fc.constantFrom(SCIM_TOKEN, SCIM_TOKEN, 'wrong', ''),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ method, path, id, filter, body, token }) => {
        const url = `/scim/v2${path.replace('{id}', encodeComponent(id))}${filter ? `?filter=${encodeComponent(filter)}` : ''}`;
        const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
        const req: FuzzRequest = {
          method,
          url,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(hasBody ? { 'content-type': 'application/scim+json' } : {}),
          },
          ...(hasBody ? { payload: body } : {}),
        };
        expect(await check(req, scimShape)).toBeNull();
      }),
      params,
    );
  }, 600_000);
});

describe("fuzzing the identity provider's sign-in form", () => {
  it('answers a page (never a 5xx) and signs nobody in', async () => {
    const { config } = s.t;
    if (config.idp.mode !== 'embedded') throw new Error('embedded mode expected');
    const client = { issuer: config.idp.issuer, clientId: config.idp.clientId, redirectUri: config.publicUrl };
    const arb = fc.record({
      username: fc.oneof(hostileString, fc.constantFrom('bob@example.com', 'admin@example.com')),
      password: hostileString,
      encoding: fc.constantFrom('form', 'json', 'raw'),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ username, password, encoding }) => {
        const browser = new TestBrowser(injectTransport(s.t.app));
        const start = await browser.get(authorizeUrl(client, { scope: `openid ${config.idp.scope}`, challenge: pkce().challenge }));
        const interaction = location(start, config.publicUrl);
        const page = await browser.get(interaction);
        const action = new URL(formAction(page.body)!, interaction);
        const before = await snapshotState(s.db, ['oidc_payload']);
        const payload =
          encoding === 'json'
            ? toJsonText({ username, password })
            : encoding === 'form'
              ? `username=${encodeComponent(username)}&password=${encodeComponent(password)}`
              : `username=${username}&password=${password}`;
        const res = await browser.request('POST', action, {
          body: payload,
          headers: { 'content-type': encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded' },
        });
        const what = `${encoding} ${JSON.stringify(username).slice(0, 80)} → ${res.status} ${res.body.slice(0, 200)}`;
        expect(res.status, what).toBeLessThan(500);
        if (res.status >= 400) expect(String(res.headers['content-type']), what).toMatch(/^text\/html/);
        expect(await changedSince(s.db, before, ['oidc_payload']), what).toEqual([]);
      }),
      { ...params, numRuns: Math.max(5, Math.ceil(RUNS / 2)) },
    );
  }, 600_000);
});
