import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { adminSnapshot } from './admin-api.js';
import type { ScimTestApp } from './scim-api.js';

/** Helpers of the SCIM ownership tests (not a test file): accounts SCIM did not create, and what a refusal leaves. */

export const byUserName = (userName: string) => `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`;

/** A just-in-time account: the user signs in once, before any provisioning. */
export async function jitSignIn(s: ScimTestApp, upn: string, roles: string[] = []) {
  const res = await s.t.app.inject({
    method: 'GET',
    url: `/account/getuserinfo?userid=${encodeURIComponent(upn)}&email=${encodeURIComponent(upn)}&firstname=Jit&lastname=User`,
    headers: { authorization: `Bearer ${await s.token(upn, roles)}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().mfa.status).toBe('active');
}

/** Every row SCIM could change for `upn` (and the SCIM users), to show a refusal changed nothing. */
export async function stateOf(s: ScimTestApp, upn: string) {
  const [scimUsers, idp, directory, mfa, revocation] = await Promise.all([
    s.db.selectFrom('scim_user').selectAll().orderBy('id').execute(),
    s.db.selectFrom('idp_account').selectAll().where('username', '=', upn).executeTakeFirst(),
    s.db.selectFrom('directory_user').selectAll().where('upn', '=', upn).executeTakeFirst(),
    s.db.selectFrom('mfa_user').selectAll().where('username', '=', upn).executeTakeFirst(),
    s.db.selectFrom('session_revocation').selectAll().where('upn', '=', upn).executeTakeFirst(),
  ]);
  return JSON.stringify({ scimUsers, idp, directory, mfa, revocation, all: await adminSnapshot(s.db) });
}

/** The successful SCIM events about `upn`. */
export const successes = async (s: ScimTestApp, upn: string) =>
  s.db
    .selectFrom('audit_event')
    .select('action')
    .where('target_upn', '=', upn)
    .where('action', 'like', 'scim.%')
    .where('outcome', '=', 'success')
    .execute();

/** A token as a Solution Administrator creates it on the admin screens (stored as its SHA-256). */
export async function tokenMadeBy(s: ScimTestApp, createdBy: string, name: string): Promise<string> {
  const secret = `scim_${randomBytes(32).toString('base64url')}`;
  await s.db
    .insertInto('scim_token')
    .values({ name, token_hash: createHash('sha256').update(secret).digest('hex'), created_by: createdBy })
    .execute();
  return secret;
}

export const revocationOf = (s: ScimTestApp, upn: string) =>
  s.db.selectFrom('session_revocation').select('reason').where('upn', '=', upn).executeTakeFirst();
