import type { Insertable, Kysely } from 'kysely';
import { ROLE_HELPDESK, ROLE_SOLUTION_ADMIN, type RoleNames } from '@mfa-portal/shared';
import type { Database, MfaDeviceTable, MfaUserStatus } from '../db/schema.js';
import { hashPassword } from '../idp/password.js';
import { seedDemoFactorPolicies } from './demo-factor-policy.js';

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
  // The helpdesk call's journey (e2e/tests/helpdesk-call.spec.ts): lena calls the service desk, reads
  // out a code of her work phone, and is helped on her page; nobody else touches her devices or codes.
  {
    email: 'lena@example.com',
    givenName: 'Lena',
    familyName: 'Lund',
    roles: [],
    mfa: { status: 'active', devices: [phone('Work phone', '+15555550141', 'Android'), phone('Tablet', '+15555550142', 'iOS')] },
  },
  // The default sign-in method's journey (e2e/tests/overview-default-method.spec.ts): mia starts with an
  // authenticator app ("Mia's phone"), adds a passkey and chooses what is offered first; noah has no
  // device, and is told he is not protected yet.
  {
    email: 'mia@example.com',
    givenName: 'Mia',
    familyName: 'Moreau',
    roles: [],
    mfa: { status: 'active', devices: [phone("Mia's phone", '+15555550151', 'Android')] },
  },
  { email: 'noah@example.com', givenName: 'Noah', familyName: 'Nash', roles: [], mfa: { status: 'active', devices: [] } },
  // The passkey journeys (e2e/tests/staff-passkeys.spec.ts): judy and kim start with no device.
  { email: 'judy@example.com', givenName: 'Judy', familyName: 'Jones', roles: [], mfa: { status: 'active', devices: [] } },
  { email: 'kim@example.com', givenName: 'Kim', familyName: 'King', roles: [], mfa: { status: 'active', devices: [] } },
  // The activity's journey (e2e/tests/activity-story.spec.ts): olga signs in once with a wrong code, then
  // the right one from her authenticator app ("Olga's phone"), and reads the story of it; nothing else happens to her.
  {
    email: 'olga@example.com',
    givenName: 'Olga',
    familyName: 'Olsen',
    roles: [],
    mfa: { status: 'active', devices: [phone("Olga's phone", '+15555550161', 'Android')] },
  },
  // The token inventory's journey (e2e/tests/admin-audit-search.spec.ts): paul's only device is the token
  // D100-0016, so taking it from him in the inventory must warn that he is left with none.
  {
    email: 'paul@example.com',
    givenName: 'Paul',
    familyName: 'Parker',
    roles: [],
    mfa: { status: 'active', devices: [d100('D100-0016')] },
  },
  // The administrative units' journey (e2e/tests/admin-units.spec.ts): an administrator puts tina in a
  // unit and assigns sam (a Helpdesk Administrator with his authenticator app "Sam's phone") to it; sam
  // then finds tina, and never uma, who is in no unit of his.
  {
    email: 'sam@example.com',
    givenName: 'Sam',
    familyName: 'Stone',
    roles: [ROLE_HELPDESK],
    mfa: { status: 'active', devices: [phone("Sam's phone", '+15555550171', 'Android')] },
  },
  { email: 'tina@example.com', givenName: 'Tina', familyName: 'Torres', roles: [], mfa: { status: 'active', devices: [] } },
  { email: 'uma@example.com', givenName: 'Uma', familyName: 'Usher', roles: [], mfa: { status: 'active', devices: [] } },
  // The enrolment campaign's journey (e2e/tests/enrolment-campaign.spec.ts): xena and yusuf have no
  // device and are the directory group "Campaign pilot" (DEMO_GROUPS), which an administrator asks to enrol.
  { email: 'xena@example.com', givenName: 'Xena', familyName: 'Xu', roles: [], mfa: { status: 'active', devices: [] } },
  { email: 'yusuf@example.com', givenName: 'Yusuf', familyName: 'Yilmaz', roles: [], mfa: { status: 'active', devices: [] } },
  // The factor policy's journey (e2e/tests/factor-policy.spec.ts): victor, a contractor with no device, may
  // add only a security key; wendy (Finance) signs in with her app but may add only a passkey or security key.
  { email: 'victor@example.com', givenName: 'Victor', familyName: 'Vance', roles: [], mfa: { status: 'active', devices: [] } },
  {
    email: 'wendy@example.com',
    givenName: 'Wendy',
    familyName: 'Wu',
    roles: [],
    mfa: { status: 'active', devices: [phone("Wendy's phone", '+15555550181', 'Android')] },
  },
];

/** Demo directory groups, as SCIM would send them: a name and its members (demo staff, by e-mail). */
export const DEMO_GROUPS: readonly { name: string; members: readonly string[] }[] = [
  { name: 'Campaign pilot', members: ['xena@example.com', 'yusuf@example.com'] },
  // Their own factor policies are DEMO_FACTOR_POLICIES (demo-factor-policy.ts).
  { name: 'Contractors', members: ['victor@example.com'] },
  { name: 'Finance', members: ['wendy@example.com'] },
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

    // The demo groups, held where SCIM keeps groups (each member as the SCIM user of their account).
    for (const group of DEMO_GROUPS) {
      const { id: groupId } = await trx
        .insertInto('scim_group')
        .values({ display_name: group.name, external_id: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const email of group.members) {
        const member = DEMO_STAFF.find((m) => m.email === email)!;
        const { id: userId } = await trx
          .insertInto('scim_user')
          .values({
            user_name: email,
            external_id: null,
            display_name: `${member.givenName} ${member.familyName}`,
            given_name: member.givenName,
            family_name: member.familyName,
            formatted_name: null,
            emails: JSON.stringify([{ value: email, primary: true }]),
            roles: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.insertInto('scim_group_member').values({ group_id: groupId, user_id: userId }).execute();
      }
    }
    await seedDemoFactorPolicies(trx);
  });
}
