import type { Insertable, Kysely } from 'kysely';
import { ROLE_HELPDESK, ROLE_SOLUTION_ADMIN, type RoleNames } from '@mfa-portal/shared';
import type { Database, MfaDeviceTable, MfaUserStatus } from '../db/schema.js';
import { hashPassword } from '../idp/password.js';

/**
 * Demo staff of the embedded mode: accounts of the embedded identity provider and their records at the
 * builtin MFA provider. Written once, on the first start: a marker in `app_secret` records that the
 * seed ran, so later starts never re-create, overwrite or re-add anything an administrator changed.
 */

export const DEMO_SEED_MARKER = 'demo.seeded';

type DemoDevice = Omit<Insertable<MfaDeviceTable>, 'user_id'>;

export interface DemoStaffMember {
  email: string;
  givenName: string;
  familyName: string;
  roles: string[];
  /** Absent: not provisioned at the MFA provider (no `mfa_user` row). */
  mfa?: { status: MfaUserStatus; statusReason?: string; devices: DemoDevice[] };
}

/**
 * A demo Duo D100 token: its seed is public (see demo-tokens.ts), so a person trying the
 * portal can read its codes with `npm run demo:codes`, and the tests can compute them.
 */
const d100 = (serial: string): DemoDevice => ({
  kind: 'hardware_token',
  name: 'Duo D100 token',
  capabilities: ['passcode'],
  serial,
  token_type: 'Duo D100',
});

const phone = (name: string, phoneNumber: string, platform: string): DemoDevice => ({
  kind: 'phone',
  name,
  capabilities: ['push', 'passcode'],
  phone_number: phoneNumber,
  platform,
});

export const DEMO_STAFF: readonly DemoStaffMember[] = [
  { email: 'alice@example.com', givenName: 'Alice', familyName: 'Anders', roles: [], mfa: { status: 'active', devices: [] } },
  {
    email: 'bob@example.com',
    givenName: 'Bob',
    familyName: 'Brown',
    roles: [],
    mfa: {
      status: 'active',
      devices: [phone('iPhone 15', '+15555550123', 'iOS'), d100('D100-0001')],
    },
  },
  {
    email: 'helpdesk@example.com',
    givenName: 'Hana',
    familyName: 'Helpdesk',
    roles: [ROLE_HELPDESK],
    mfa: { status: 'active', devices: [phone('Pixel 8', '+15555550124', 'Android'), d100('D100-0005')] },
  },
  {
    email: 'admin@example.com',
    givenName: 'Ada',
    familyName: 'Admin',
    roles: [ROLE_SOLUTION_ADMIN],
    mfa: { status: 'active', devices: [phone('iPhone 14', '+15555550125', 'iOS'), d100('D100-0006')] },
  },
  {
    email: 'disabled@example.com',
    givenName: 'Dan',
    familyName: 'Disabled',
    roles: [],
    mfa: { status: 'disabled', statusReason: 'Disabled by the security team', devices: [] },
  },
  { email: 'nomfa@example.com', givenName: 'Nora', familyName: 'Nomfa', roles: [] },
  // Staff for the self-service end-to-end journeys (e2e/tests/staff-*.spec.ts), one per journey whose
  // state matters, so the journeys neither depend on nor disturb each other (or alice and bob).
  { email: 'carol@example.com', givenName: 'Carol', familyName: 'Clark', roles: [], mfa: { status: 'active', devices: [] } },
  { email: 'dave@example.com', givenName: 'Dave', familyName: 'Dunn', roles: [], mfa: { status: 'active', devices: [] } },
  {
    email: 'erin@example.com',
    givenName: 'Erin',
    familyName: 'Ellis',
    roles: [],
    mfa: { status: 'active', devices: [phone('Old phone', '+15555550126', 'Android'), d100('D100-0004')] },
  },
  { email: 'frank@example.com', givenName: 'Frank', familyName: 'Fisher', roles: [], mfa: { status: 'active', devices: [] } },
  // The lost-device wizard's journey (e2e/tests/admin-lost-device.spec.ts): grace loses her phone and
  // still has her demo token D100-0007 to prove who she is.
  {
    email: 'grace@example.com',
    givenName: 'Grace',
    familyName: 'Green',
    roles: [],
    mfa: { status: 'active', devices: [phone('Lost phone', '+15555550127', 'Android'), d100('D100-0007')] },
  },
  // The self-service lost-device journey (e2e/tests/staff-lost-device.spec.ts): ivan starts with no device.
  { email: 'ivan@example.com', givenName: 'Ivan', familyName: 'Ives', roles: [], mfa: { status: 'active', devices: [] } },
  // The passkey journeys (e2e/tests/staff-passkeys.spec.ts): judy and kim start with no device.
  { email: 'judy@example.com', givenName: 'Judy', familyName: 'Jones', roles: [], mfa: { status: 'active', devices: [] } },
  { email: 'kim@example.com', givenName: 'Kim', familyName: 'King', roles: [], mfa: { status: 'active', devices: [] } },
];

/** A demo member's roles under the configured role names (ROLE_HELPDESK, ROLE_SOLUTION_ADMIN). */
export function demoRolesOf(member: DemoStaffMember, names?: Pick<RoleNames, 'helpdesk' | 'solutionAdmin'>): string[] {
  if (!names) return member.roles;
  return member.roles.map((r) => (r === ROLE_HELPDESK ? names.helpdesk : r === ROLE_SOLUTION_ADMIN ? names.solutionAdmin : r));
}

/**
 * A demo device as the builtin provider holds it. The builtin provider has no channel to a phone (no
 * push, no SMS), so a demo phone becomes the authenticator app on that phone, under the same name: it
 * gives passcodes, and nothing is offered that cannot work. Its secret is written afterwards by
 * seedDemoAuthenticatorSecrets (demo-authenticators.ts), which has the key. At Duo (the end-to-end
 * stand-in) the same people keep their phones, with push.
 */
export function builtinDemoDevice(device: DemoDevice): DemoDevice {
  if (device.kind !== 'phone') return device;
  return { kind: 'authenticator', name: device.name, capabilities: ['passcode'] };
}

/** Seeds the demo staff on the first start; does nothing on later starts. */
export async function seedDemoStaff(
  db: Kysely<Database>,
  opts: { password: string; roles?: Pick<RoleNames, 'helpdesk' | 'solutionAdmin'> },
): Promise<void> {
  // A warm start (the seed ran before) costs one read, not a dozen deliberately slow password hashes.
  const seeded = await db.selectFrom('app_secret').select('name').where('name', '=', DEMO_SEED_MARKER).executeTakeFirst();
  if (seeded) return;
  // Hash before the transaction: scrypt is slow on purpose, and PGlite holds its only connection meanwhile.
  const hashes = await Promise.all(DEMO_STAFF.map(() => hashPassword(opts.password)));

  // Only `trx` inside: awaiting `db` here would deadlock PGlite.
  await db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('app_secret')
      .values({ name: DEMO_SEED_MARKER, value: JSON.stringify({ seededAt: new Date().toISOString() }) })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .executeTakeFirst();
    if (!marker) return; // seeded before (or by another instance that got there first)
    const seededAt = Date.now();

    for (const [i, member] of DEMO_STAFF.entries()) {
      const username = member.email.toLowerCase();
      const roles = demoRolesOf(member, opts.roles);
      await trx
        .insertInto('idp_account')
        .values({
          username,
          password_hash: hashes[i]!,
          email: username,
          given_name: member.givenName,
          family_name: member.familyName,
          roles,
        })
        .onConflict((oc) => oc.column('username').doNothing())
        .execute();
      // Their roles are known to the portal from the start (admin pages need them).
      await trx
        .insertInto('directory_user')
        .values({ upn: username, display_name: `${member.givenName} ${member.familyName}`, email: username, roles, source: 'demo' })
        .onConflict((oc) => oc.column('upn').doNothing())
        .execute();

      if (!member.mfa) continue;
      const user = await trx
        .insertInto('mfa_user')
        .values({
          username,
          email: username,
          real_name: `${member.givenName} ${member.familyName}`,
          status: member.mfa.status,
          status_reason: member.mfa.statusReason ?? null,
        })
        .onConflict((oc) => oc.column('username').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!user || member.mfa.devices.length === 0) continue; // an existing MFA record keeps its devices
      await trx
        .insertInto('mfa_device')
        // Distinct creation times keep the listed order (one transaction shares one now()).
        .values(
          member.mfa.devices.map((device, k) => ({ ...builtinDemoDevice(device), user_id: user.id, created_at: new Date(seededAt + k) })),
        )
        .execute();
    }
  });
}
