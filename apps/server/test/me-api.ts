import { importJWK, SignJWT } from 'jose';
import { sql, type Kysely } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { expect, vi } from 'vitest';
import { devicesResponseSchema, errorBodySchema, type Device, type ErrorBody } from '@mfa-portal/shared';
import { buildTestApp, TEST_PASSWORD, type TestApp } from './app.js';
import type { Database } from '../src/db/schema.js';
import { hashPassword } from '../src/idp/password.js';
import { loadIdpSecrets } from '../src/idp/secrets.js';
import { demoTokenSeed } from '../src/demo/demo-tokens.js';
import { hotpCode, totpCode } from '../src/mfa/common/otp.js';
import { loadMfaKeys, type MfaKeys } from '../src/mfa/mfa-keys.js';

/**
 * Helpers of the MFA API tests (not a test file). Access tokens are minted with the embedded
 * provider's own signing key, exactly as it signs them, so the API tests do not depend on how the
 * sign-in pages ask for factors; `signIn` (test/oidc-flow.ts) checks the real flow elsewhere.
 */

export { TEST_PASSWORD };

export interface MeTestApp {
  t: TestApp;
  db: Kysely<Database>;
  keys: MfaKeys;
  /**
   * An access token as the embedded provider issues it. By default it shows a second factor
   * (`amr: ['pwd', 'mfa']`) and belongs to the user's one test session (`sid`); `amr` and `sid` change that.
   */
  token(upn: string, roles?: string[], opts?: { amr?: string[]; sid?: string }): Promise<string>;
  /** `opts.sid`: from another sign-in session of the user than the default one. */
  call(
    upn: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    payload?: unknown,
    opts?: { sid?: string },
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function meTestApp(env: Record<string, string> = {}, opts: Parameters<typeof buildTestApp>[1] = {}): Promise<MeTestApp> {
  const t = await buildTestApp(env, opts);
  const db = t.database.db;
  const keys = loadMfaKeys(t.config);
  const { signingKeys } = await loadIdpSecrets(db);
  const jwk = signingKeys[0]!;
  const privateKey = await importJWK(jwk, 'RS256');
  if (t.config.idp.mode !== 'embedded') throw new Error('the MFA API tests run in the embedded mode');
  const { issuer, audience } = t.config.idp;

  const token = async (upn: string, roles: string[] = [], opts: { amr?: string[]; sid?: string } = {}) =>
    new SignJWT({
      upn,
      preferred_username: upn,
      email: upn,
      roles,
      amr: opts.amr ?? ['pwd', 'mfa'],
      sid: opts.sid ?? `test-session-${upn.toLowerCase()}`,
      scp: 'access_as_user',
    })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(`sub-${upn}`)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);

  return {
    t,
    db,
    keys,
    token,
    async call(upn, method, path, payload, opts = {}) {
      return t.app.inject({
        method,
        url: `/api/me${path}`,
        headers: {
          authorization: `Bearer ${await token(upn, [], { sid: opts.sid })}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
      });
    },
    close: () => t.close(),
  };
}

/** Adds a person to the embedded directory and, unless `mfa: null`, to the builtin MFA store. */
export async function addUser(
  db: Kysely<Database>,
  upn: string,
  mfa: { status?: 'active' | 'disabled' | 'locked_out' | 'bypass'; statusReason?: string } | null = {},
): Promise<string | null> {
  await db
    .insertInto('idp_account')
    .values({
      username: upn,
      password_hash: await hashPassword(TEST_PASSWORD),
      email: upn,
      given_name: 'Test',
      family_name: upn.split('@')[0]!,
      roles: [],
    })
    .execute();
  if (mfa === null) return null;
  const row = await db
    .insertInto('mfa_user')
    .values({ username: upn, email: upn, real_name: upn, status: mfa.status ?? 'active', status_reason: mfa.statusReason ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The rows of `tables`, each table in a stable order, as one JSON text read by one statement: two of
 * them compared show whether a request changed anything there. One statement rather than a query a
 * table, because the authorisation matrix takes two snapshots for each of its thousands of rows.
 */
export async function tablesSnapshot(db: Kysely<Database>, tables: readonly (keyof Database & string)[]): Promise<string> {
  const parts = tables.map(
    (table) => sql`${sql.lit(table)}, (select coalesce(json_agg(t order by t::text), '[]'::json) from ${sql.table(table)} t)`,
  );
  const { rows } = await sql<{ snapshot: string }>`select json_build_object(${sql.join(parts)})::text as snapshot`.execute(db);
  return rows[0]!.snapshot;
}

/** Everything the MFA API may change, to compare before and after a refused request. */
export async function mfaSnapshot(db: Kysely<Database>): Promise<string> {
  return tablesSnapshot(db, ['mfa_user', 'mfa_device', 'mfa_bypass_code', 'mfa_hardware_token', 'mfa_totp_enrolment', 'step_up']);
}

/** The next `n` codes of a demo hardware token, from its stored counter (+ `skip` presses). */
export async function demoTokenCodes(db: Kysely<Database>, serial: string, n: number, skip = 0): Promise<string[]> {
  const { counter } = await db
    .selectFrom('mfa_hardware_token')
    .select('counter')
    .where(sql`upper(serial)`, '=', serial.toUpperCase())
    .executeTakeFirstOrThrow();
  return Array.from({ length: n }, (_, i) => hotpCode(demoTokenSeed(serial), counter + skip + i));
}

/** A TOTP code of `secret` at `at` (default now, fake timers included). */
export function totpAt(secret: string, at: Date = new Date()): string {
  return totpCode(secret, at);
}

/** Audit events of an action (newest last). */
export function auditEvents(db: Kysely<Database>, action?: string) {
  let q = db.selectFrom('audit_event').selectAll().orderBy('id');
  if (action) q = q.where('action', '=', action);
  return q.execute();
}

export const json = <T = any>(res: LightMyRequestResponse): T => res.json() as T;

/** The body of a refused call, checked against the shared error shape. */
export const errorOf = (res: { json(): unknown }): ErrorBody => errorBodySchema.parse(res.json());

/**
 * Waits for the next whole second (real time). Access tokens carry their issue time in seconds, and a
 * token issued in the very second its user's sessions were revoked (sign-out, disabled account) is
 * refused too: a test that signs in again right after waits for this first.
 */
export const nextSecond = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));

/** Moves the faked clock (`vi.useFakeTimers({ toFake: ['Date'] })`) forward. */
export const advance = (seconds: number): void => {
  vi.setSystemTime(Date.now() + seconds * 1000);
};

/** The user's devices, as GET /api/me/devices lists them. */
export async function devicesOf(m: MeTestApp, upn: string): Promise<Device[]> {
  const res = await m.call(upn, 'GET', '/devices');
  expect(res.statusCode).toBe(200);
  return devicesResponseSchema.parse(res.json()).devices;
}
