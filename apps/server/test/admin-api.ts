import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { ROLE_HELPDESK, ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import type { Database } from '../src/db/schema.js';
import { tablesSnapshot, type MeTestApp } from './me-api.js';

/** Helpers of the administration API tests (not a test file). */

export const HELPDESK = { upn: 'helpdesk@example.com', roles: [ROLE_HELPDESK] };
export const ADMIN = { upn: 'admin@example.com', roles: [ROLE_SOLUTION_ADMIN] };
export const BOB = { upn: 'bob@example.com', roles: [] as string[] };

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request with a token minted for `who` (any upn and roles), to any path. */
export async function callAs(
  m: MeTestApp,
  who: { upn: string; roles: string[] } | null,
  method: Method,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const auth = who ? { authorization: `Bearer ${await m.token(who.upn, who.roles)}` } : {};
  const isText = typeof payload === 'string';
  return m.t.app.inject({
    method,
    url,
    headers: {
      ...auth,
      ...(payload === undefined ? {} : { 'content-type': isText ? 'text/csv' : 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: isText ? payload : JSON.stringify(payload) }),
  });
}

/** Everything an admin call may change (audit log excluded: denials append to it on purpose). */
export async function adminSnapshot(db: Kysely<Database>): Promise<string> {
  return tablesSnapshot(db, [
    'mfa_user',
    'mfa_device',
    'mfa_bypass_code',
    'mfa_hardware_token',
    'mfa_totp_enrolment',
    'step_up',
    'directory_user',
    // Administrative units and everything they name.
    'admin_unit',
    'admin_unit_group',
    'admin_unit_person',
    'admin_unit_helpdesk_group',
    'admin_unit_helpdesk_person',
    // The factor policy: the global one and the groups' overrides.
    'factor_policy_global',
    'factor_policy_group',
    // Enrolment campaigns and each person's state in them.
    'enrolment_campaign',
    'enrolment_campaign_member',
  ]);
}

export async function deviceIdOf(db: Kysely<Database>, upn: string, kind?: 'phone' | 'hardware_token' | 'authenticator'): Promise<string> {
  let q = db
    .selectFrom('mfa_device as d')
    .innerJoin('mfa_user as u', 'u.id', 'd.user_id')
    .select('d.id')
    .where('u.username', '=', upn)
    .orderBy('d.created_at');
  if (kind) q = q.where('d.kind', '=', kind);
  return (await q.executeTakeFirstOrThrow()).id;
}

/**
 * A phone record as the builtin store may hold one (from before it knew better, or an import): the
 * builtin provider cannot reach a phone, so such a record offers nothing but to be renamed or removed.
 * The demo staff have none on builtin (their phones are authenticator apps there).
 */
export async function addPhoneRecord(db: Kysely<Database>, upn: string, name = 'Old phone record'): Promise<string> {
  const user = await db.selectFrom('mfa_user').select('id').where('username', '=', upn).executeTakeFirstOrThrow();
  const row = await db
    .insertInto('mfa_device')
    .values({ user_id: user.id, kind: 'phone', name, capabilities: ['push', 'passcode'], phone_number: '+15555550199', platform: 'iOS' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const JUSTIFY = { reason: 'Caller verified by phone', ticket: 'INC-1001' };

/**
 * "Verify, then issue" (issue 14): records, as `who`, a verification of `upn` made by hand (as for a
 * caller with no device left), so `who` may issue codes or remove devices for `upn` within the window.
 */
export async function verifyByHand(m: MeTestApp, who: { upn: string; roles: string[] }, upn: string, ticket = 'INC-1001'): Promise<void> {
  const res = await callAs(m, who, 'POST', `/api/admin/users/${upn}/verify-identity/manual`, { method: 'photo_id_video_call', ticket });
  if (res.statusCode !== 201) throw new Error(`verify-identity/manual answered ${res.statusCode}: ${res.body}`);
}
