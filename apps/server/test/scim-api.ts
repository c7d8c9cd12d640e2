import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { meTestApp, type MeTestApp } from './me-api.js';

/** Helpers of the SCIM tests (not a test file): the real app, called as Entra's provisioning service calls it. */

export const SCIM_TOKEN = 'scim-test-token-0123456789-abcdefghijklmnopqrstuvwxyz';
export const SCIM = 'application/scim+json';

export interface ScimTestApp extends MeTestApp {
  scim(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    opts?: { token?: string | null; contentType?: string; raw?: string },
  ): Promise<LightMyRequestResponse>;
  auditOf(
    action: string,
  ): Promise<Array<{ actor_upn: string | null; target_upn: string | null; outcome: string; details: Record<string, unknown> | null }>>;
}

export async function scimTestApp(env: Record<string, string> = {}): Promise<ScimTestApp> {
  const m = await meTestApp({ SCIM_TOKEN, ...env });
  return {
    ...m,
    scim(method, path, body, opts = {}) {
      const token = opts.token === undefined ? SCIM_TOKEN : opts.token;
      const hasBody = body !== undefined || opts.raw !== undefined;
      return m.t.app.inject({
        method,
        url: `/scim/v2${path}`,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(hasBody ? { 'content-type': opts.contentType ?? SCIM } : {}),
        },
        ...(hasBody ? { payload: opts.raw ?? JSON.stringify(body) } : {}),
      });
    },
    auditOf: (action) =>
      m.db
        .selectFrom('audit_event')
        .select(['actor_upn', 'target_upn', 'outcome', 'details'])
        .where('action', '=', action)
        .orderBy('id')
        .execute(),
  };
}

/**
 * The set-up every SCIM test suite repeats: a SCIM test app built before the enclosing suite's tests
 * (with `env`) and closed after them. The handle is returned at once and filled in before the first test.
 */
export function useScimTestApp(env: Record<string, string> = {}): ScimTestApp {
  const handle = {} as ScimTestApp;
  beforeAll(async () => {
    Object.assign(handle, await scimTestApp(env));
  });
  afterAll(() => handle.close());
  return handle;
}

/** A SCIM error object with this status (and scimType when given), sent as application/scim+json. */
export function expectScimError(res: LightMyRequestResponse, status: number, scimType?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
  const body = res.json();
  expect(body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
  expect(body.status).toBe(String(status));
  expect(typeof body.detail).toBe('string');
  if (scimType) expect(body.scimType).toBe(scimType);
  return body;
}

/** A user as Entra's provisioning service creates it (with the mapping's usual attributes). */
export function entraUser(userName: string, extra: Record<string, unknown> = {}) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
    externalId: userName.split('@')[0],
    userName,
    active: true,
    displayName: 'Dana Doe',
    emails: [{ primary: true, type: 'work', value: userName }],
    name: { formatted: 'Dana Doe', familyName: 'Doe', givenName: 'Dana' },
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Finance' },
    ...extra,
  };
}

export const patchOp = (...Operations: unknown[]) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations });
