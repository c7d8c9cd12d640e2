import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticatorActivationSchema,
  authenticatorActivationStateSchema,
  devicesResponseSchema,
  factorPolicyOverrideSchema,
  factorPolicyPreviewSchema,
  factorPolicyResponseSchema,
  myFactorPolicySchema,
  type FactorPolicyRuleInput,
} from '@mfa-portal/shared';
import { ADMIN, adminSnapshot, callAs, JUSTIFY, verifyByHand } from '../../../../test/admin-api.js';
import { softwareDevice } from '../../authenticator/test/software-device.js';
import { addUser, auditEvents, demoTokenCodes, errorOf, meTestApp, totpAt, type MeTestApp } from '../../../../test/me-api.js';
import {
  authorizeUrl,
  formAction,
  injectTransport,
  location,
  pkce,
  TestBrowser,
  verifyFormAction,
  type Client,
} from '../../../../test/oidc-test-client.js';

/**
 * The factor policy, from outside: a Solution Administrator sets the global policy and directory
 * groups' overrides (bad input refused with its field, nothing stored; a change that would leave
 * someone with no factor they may use refused with the list of them), previews a change, and each
 * person gets the strictest combination of their groups' overrides, on their next request. Enrolment,
 * step-up and the embedded sign-in offer and accept only what the person's policy allows; a device
 * that became disallowed is shown as such and kept.
 */

let m: MeTestApp;
let client: Client;
const groups: Record<string, string> = {};
const secrets: Record<string, string> = {};
const tokenDevice: Record<string, string> = {};

const TINA = 'tina@policy.example'; // Contractors; an authenticator app
const FINN = 'finn@policy.example'; // Finance; an authenticator app and the hardware token D100-0002
const UMA = 'uma@policy.example'; // Contractors and Finance; an authenticator app
const VIC = 'vic@policy.example'; // Contractors; no device yet
const WALT = 'walt@policy.example'; // only the hardware token D100-0003; joins Finance later

const policyTables = async () =>
  JSON.stringify(
    await Promise.all([
      m.db.selectFrom('factor_policy_global').selectAll().execute(),
      m.db.selectFrom('factor_policy_group').selectAll().orderBy('group_id').execute(),
    ]),
  );

async function person(upn: string, inGroups: string[]) {
  await addUser(m.db, upn);
  await m.db
    .insertInto('directory_user')
    .values({ upn, display_name: upn.split('@')[0]!, email: upn, roles: [] })
    .execute();
  const scim = await m.db
    .insertInto('scim_user')
    .values({
      user_name: upn,
      external_id: null,
      display_name: upn,
      given_name: null,
      family_name: null,
      formatted_name: null,
      emails: '[]',
      roles: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const g of inGroups) await m.db.insertInto('scim_group_member').values({ group_id: groups[g]!, user_id: scim.id }).execute();
  return scim.id;
}

/** An authenticator app enrolled at the store a minute ago, so the current TOTP step is still unused. */
async function app(upn: string) {
  const when = new Date(Date.now() - 60_000);
  const mfa = m.t.app.mfa;
  const e = await mfa.startTotpEnrolment(upn, { allowWhenDevicesExist: true, issuer: 'Test', now: when });
  await mfa.confirmTotpEnrolment(
    upn,
    e.enrolmentId,
    { code: totpAt(e.secret, when), name: 'Phone app' },
    { allowWhenDevicesExist: true, now: when },
  );
  secrets[upn] = e.secret;
}

async function token(upn: string, serial: string) {
  const codes = await demoTokenCodes(m.db, serial, 2);
  const device = await m.t.app.mfa.claimHardwareToken(upn, { serial, codes }, { allowWhenDevicesExist: true });
  tokenDevice[upn] = device.id;
}

const rule = (r: Partial<FactorPolicyRuleInput>): FactorPolicyRuleInput => ({
  enrol: ['passkey', 'security_key', 'portal_authenticator', 'phone', 'authenticator_app', 'hardware_token', 'bypass_codes'],
  use: ['passkey', 'security_key', 'portal_authenticator', 'phone', 'authenticator_app', 'hardware_token', 'bypass_codes'],
  requirePhishingResistant: false,
  ...r,
});
const CONTRACTORS = rule({ enrol: ['security_key'], use: ['security_key', 'authenticator_app'], maxPerKind: { security_key: 2 } });
const FINANCE = rule({
  enrol: ['passkey', 'security_key', 'authenticator_app', 'bypass_codes'],
  use: ['passkey', 'security_key', 'authenticator_app', 'bypass_codes'],
  maxPerKind: { authenticator_app: 1, security_key: 3 },
});

const mine = async (upn: string) => {
  const res = await m.call(upn, 'GET', '/factor-policy');
  expect(res.statusCode, res.body).toBe(200);
  return myFactorPolicySchema.parse(res.json());
};

beforeAll(async () => {
  m = await meTestApp({ MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '10000' });
  if (m.t.config.idp.mode !== 'embedded') throw new Error('embedded mode expected');
  client = { issuer: m.t.config.idp.issuer, clientId: m.t.config.idp.clientId, redirectUri: m.t.config.publicUrl };
  // Named apart from the demo groups "Contractors" and "Finance", which have policies of their own.
  for (const name of ['Contractors', 'Finance', 'Treasury', 'Empty']) {
    const row = await m.db
      .insertInto('scim_group')
      .values({ display_name: `Policy ${name.toLowerCase()}`, external_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    groups[name] = row.id;
  }
  await person(TINA, ['Contractors']);
  await person(FINN, ['Finance', 'Treasury']);
  await person(UMA, ['Contractors', 'Finance']);
  await person(VIC, ['Contractors']);
  await person(WALT, []);
  for (const upn of [TINA, FINN, UMA]) await app(upn);
  await token(FINN, 'D100-0002');
  await token(WALT, 'D100-0003');
});
afterAll(async () => m?.close());

describe('GET and PUT /api/admin/factor-policy', () => {
  it('answers the open global policy before anyone saved one (every kind, no limit), and the demo groups’ own', async () => {
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/factor-policy');
    expect(res.statusCode, res.body).toBe(200);
    const body = factorPolicyResponseSchema.parse(res.json());
    expect(body.global).toMatchObject({ use: rule({}).use, requirePhishingResistant: false, maxPerKind: {}, updatedBy: null });
    expect(body.overrides.map((o) => [o.group.name, o.enrol, o.group.memberCount])).toEqual([
      ['Contractors', ['security_key'], 1],
      ['Finance', ['passkey', 'security_key'], 1],
    ]);
  });

  it('gives the demo contractor victor security keys only', async () => {
    expect(await mine('victor@example.com')).toMatchObject({ enrol: ['security_key'], use: ['security_key'], holdsUsable: false });
  });

  it('refuses bad input naming the field, and stores nothing', async () => {
    const before = await policyTables();
    const bad = await callAs(m, ADMIN, 'PUT', '/api/admin/factor-policy/global', rule({ use: ['carrier_pigeon' as 'passkey'] }));
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toMatchObject({ code: 'request.invalid', details: { field: 'use.0' } });
    const zero = await callAs(m, ADMIN, 'PUT', '/api/admin/factor-policy/global', rule({ maxPerKind: { passkey: 0 } }));
    expect(errorOf(zero)).toMatchObject({ code: 'request.invalid', details: { field: 'maxPerKind.passkey' } });
    const nothing = await callAs(
      m,
      ADMIN,
      'PUT',
      '/api/admin/factor-policy/global',
      rule({ use: ['authenticator_app'], requirePhishingResistant: true }),
    );
    expect(nothing.statusCode).toBe(400);
    expect(errorOf(nothing)).toMatchObject({ code: 'factor_policy.no_usable_kind', details: { field: 'use' } });
    const unknown = await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/groups', {
      ...CONTRACTORS,
      groupId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown)).toMatchObject({ code: 'factor_policy.group_unknown', details: { field: 'groupId' } });
    const missing = await callAs(m, ADMIN, 'PUT', `/api/admin/factor-policy/groups/${groups.Empty}`, CONTRACTORS);
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).code).toBe('factor_policy.override_not_found');
    expect(await policyTables()).toBe(before);
  });

  it('refuses a global policy that would leave people with no factor they may use, naming them; nothing stored, the refusal audited', async () => {
    const before = await policyTables();
    const res = await callAs(m, ADMIN, 'PUT', '/api/admin/factor-policy/global', rule({ requirePhishingResistant: true }));
    expect(res.statusCode).toBe(409);
    const body = errorOf(res);
    expect(body.code).toBe('factor_policy.would_leave_without_factor');
    const people = body.details?.people as string[];
    expect(people).toEqual(expect.arrayContaining([TINA, FINN, 'bob@example.com']));
    expect(body.details?.count).toBeGreaterThanOrEqual(people.length);
    expect(body.details?.reason).toMatch(/would be left with no factor they may use/);
    expect(await policyTables()).toBe(before);
    const [last] = (await auditEvents(m.db, 'admin.factor_policy.update')).slice(-1);
    expect(last).toMatchObject({ outcome: 'failure', reason: 'factor_policy.would_leave_without_factor', actor_upn: ADMIN.upn });
  });

  it('saves a global policy and its audit event together', async () => {
    const res = await callAs(m, ADMIN, 'PUT', '/api/admin/factor-policy/global', rule({ maxPerKind: { bypass_codes: 20 } }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ maxPerKind: { bypass_codes: 20 }, updatedBy: ADMIN.upn });
    const [last] = (await auditEvents(m.db, 'admin.factor_policy.update')).slice(-1);
    expect(last).toMatchObject({
      outcome: 'success',
      details: expect.objectContaining({ policy: expect.objectContaining({ maxPerKind: [{ kind: 'bypass_codes', max: 20 }] }) }),
    });
  });
});

describe('group overrides, the preview and the refusal', () => {
  it('previews a change without storing it: who would lose every factor, who would hold disallowed ones', async () => {
    const before = await policyTables();
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/preview', {
      scope: { kind: 'group', groupId: groups.Contractors },
      policy: rule({ enrol: ['security_key'], use: ['security_key'] }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const preview = factorPolicyPreviewSchema.parse(res.json());
    expect(preview.affected).toBe(3); // tina, uma and vic
    expect(preview.refused).toBe(true);
    expect(preview.loseEveryFactor.people.map((p) => p.upn).sort()).toEqual([TINA, UMA]);
    expect(preview.loseEveryFactor.people[0]!.kinds).toEqual(['authenticator_app']);
    expect(await policyTables()).toBe(before);

    const unknown = await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/preview', {
      scope: { kind: 'group', groupId: '00000000-0000-4000-8000-000000000000' },
      policy: CONTRACTORS,
    });
    expect(errorOf(unknown)).toMatchObject({ code: 'factor_policy.group_unknown', details: { field: 'scope.groupId' } });
  });

  it('refuses an override that would leave its members with nothing they may use, with the list; stores nothing', async () => {
    const before = await policyTables();
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/groups', {
      ...rule({ enrol: ['security_key'], use: ['security_key'] }),
      groupId: groups.Contractors,
    });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: 'factor_policy.would_leave_without_factor', details: { count: 2 } });
    expect((errorOf(res).details?.people as string[]).sort()).toEqual([TINA, UMA]);
    expect(await policyTables()).toBe(before);
    // Phishing-resistant for Treasury: finn holds only an app and a token.
    const pr = await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/groups', {
      ...rule({ requirePhishingResistant: true }),
      groupId: groups.Treasury,
    });
    expect(errorOf(pr)).toMatchObject({ code: 'factor_policy.would_leave_without_factor', details: { people: [FINN] } });
    expect(await policyTables()).toBe(before);
  });

  it('creates the overrides; a second one for the same group conflicts', async () => {
    const contractors = await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/groups', { ...CONTRACTORS, groupId: groups.Contractors });
    expect(contractors.statusCode, contractors.body).toBe(201);
    expect(factorPolicyOverrideSchema.parse(contractors.json()).group).toEqual({
      id: groups.Contractors,
      name: 'Policy contractors',
      memberCount: 3,
    });
    // Finance no longer lets hardware tokens be used: finn keeps his app, so it is allowed, and the preview says he holds one he may not use.
    const preview = factorPolicyPreviewSchema.parse(
      (
        await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/preview', {
          scope: { kind: 'group', groupId: groups.Finance },
          policy: FINANCE,
        })
      ).json(),
    );
    expect(preview).toMatchObject({ refused: false, loseEveryFactor: { count: 0 }, holdDisallowed: { count: 1 } });
    expect(preview.holdDisallowed.people).toEqual([{ upn: FINN, displayName: 'finn', kinds: ['hardware_token'] }]);
    const finance = await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/groups', { ...FINANCE, groupId: groups.Finance });
    expect(finance.statusCode, finance.body).toBe(201);
    const again = await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/groups', { ...FINANCE, groupId: groups.Finance });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('factor_policy.override_exists');
    const [created] = (await auditEvents(m.db, 'admin.factor_policy.group_create')).slice(-2);
    expect(created).toMatchObject({
      outcome: 'success',
      details: expect.objectContaining({ group: 'Policy finance', groupId: groups.Finance }),
    });
  });
});

describe('each person’s policy (GET /api/me/factor-policy)', () => {
  it('gives a contractor the contractors’ policy: security keys only to add, with the reason for the rest', async () => {
    const p = await mine(VIC);
    expect(p.enrol).toEqual(['security_key']);
    expect(p.use).toEqual(['security_key', 'authenticator_app']);
    expect(p.source).toEqual({ kind: 'groups', groups: [{ id: groups.Contractors, name: 'Policy contractors' }] });
    expect(p.unavailable).toEqual(
      expect.arrayContaining([
        { kind: 'passkey', reason: 'not_allowed' },
        { kind: 'authenticator_app', reason: 'not_allowed' },
      ]),
    );
    expect(p.holdsUsable).toBe(false);
  });

  it('gives someone in two overridden groups the strictest combination of them', async () => {
    const p = await mine(UMA);
    expect(p.use).toEqual(['security_key', 'authenticator_app']);
    expect(p.enrol).toEqual(['security_key']);
    expect(p.maxPerKind).toEqual({ security_key: 2, authenticator_app: 1 });
    expect(p.source.groups.map((g) => g.name)).toEqual(['Policy contractors', 'Policy finance']);
  });

  it('shows a device that became disallowed as such, and keeps it', async () => {
    const p = await mine(FINN);
    expect(p.disallowedDevices).toEqual([tokenDevice[FINN]]);
    expect(p.holdsUsable).toBe(true);
    const devices = devicesResponseSchema.parse((await m.call(FINN, 'GET', '/devices')).json()).devices;
    expect(devices.map((d) => d.id)).toContain(tokenDevice[FINN]);
  });

  it('follows the directory on the next request: someone leaving a group leaves its policy', async () => {
    const member = await m.db
      .selectFrom('scim_group_member as gm')
      .innerJoin('scim_user as u', 'u.id', 'gm.user_id')
      .select(['gm.group_id', 'gm.user_id'])
      .where('u.user_name', '=', VIC)
      .executeTakeFirstOrThrow();
    await m.db.deleteFrom('scim_group_member').where('user_id', '=', member.user_id).execute();
    expect((await mine(VIC)).source.kind).toBe('global');
    await m.db.insertInto('scim_group_member').values(member).execute();
    expect((await mine(VIC)).enrol).toEqual(['security_key']);
  });
});

describe('enrolment: the server refuses what the policy does not allow, whatever the client', () => {
  it('refuses an authenticator app to a contractor (403, audited, nothing stored)', async () => {
    const before = await m.db.selectFrom('mfa_totp_enrolment').selectAll().execute();
    const res = await m.call(VIC, 'POST', '/devices/authenticator');
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatchObject({ code: 'factor_policy.kind_not_allowed', details: { kind: 'authenticator_app' } });
    expect(errorOf(res).details?.reason).toMatch(/Policy contractors allows adding only: security keys/);
    expect(await m.db.selectFrom('mfa_totp_enrolment').selectAll().execute()).toEqual(before);
    const [last] = (await auditEvents(m.db, 'device.enrol_start')).slice(-1);
    expect(last).toMatchObject({ outcome: 'failure', reason: 'factor_policy.kind_not_allowed', target_upn: VIC });
  });

  it('refuses a hardware token and bypass codes the same way, before any step-up is asked for', async () => {
    const claim = await m.call(VIC, 'POST', '/devices/hardware-token', { serial: 'D100-0004', codes: ['123456', '234567'] });
    expect(errorOf(claim).code).toBe('factor_policy.kind_not_allowed');
    const codes = await m.call(TINA, 'POST', '/bypass-codes', { count: 1, validitySeconds: 3600 });
    expect(codes.statusCode).toBe(403);
    expect(errorOf(codes).code).toBe('factor_policy.kind_not_allowed');
  });

  it('refuses beyond the most a person may hold (409)', async () => {
    const res = await m.call(FINN, 'POST', '/devices/authenticator');
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: 'factor_policy.limit_reached', details: { kind: 'authenticator_app', max: 1 } });
  });

  it('refuses to start a passkey registration to someone who may add neither passkeys nor security keys', async () => {
    await callAs(m, ADMIN, 'PUT', `/api/admin/factor-policy/groups/${groups.Finance}`, { ...FINANCE, enrol: ['authenticator_app'] });
    const res = await m.call(FINN, 'POST', '/webauthn/registration');
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('factor_policy.kind_not_allowed');
    await callAs(m, ADMIN, 'PUT', `/api/admin/factor-policy/groups/${groups.Finance}`, FINANCE);
    // A contractor may: the browser is asked for a roaming security key.
    const vic = await m.call(VIC, 'POST', '/webauthn/registration');
    expect(vic.statusCode, vic.body).toBe(201);
    expect(vic.json().options.authenticatorSelection).toMatchObject({ authenticatorAttachment: 'cross-platform' });
  });
});

describe('what the service desk issues and a phone’s activation follow the person’s policy too', () => {
  const XAVI = 'xavi@policy.example'; // no device; made a contractor between making a phone's link and using it

  it('refuses bypass codes a service desk would issue where the policy lets none be used (403, its words, audited, nothing stored)', async () => {
    await verifyByHand(m, ADMIN, TINA);
    const before = await adminSnapshot(m.db);
    const res = await callAs(m, ADMIN, 'POST', `/api/admin/users/${TINA}/bypass-codes`, { count: 2, validitySeconds: 3600, ...JUSTIFY });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatchObject({ code: 'factor_policy.kind_not_allowed', details: { kind: 'bypass_codes' } });
    expect(errorOf(res).details?.reason).toBe('The policy of Policy contractors does not let bypass codes be used to sign in.');
    expect(await adminSnapshot(m.db)).toBe(before);
    const [last] = (await auditEvents(m.db, 'admin.user.create_bypass_codes')).slice(-1);
    expect(last).toMatchObject({ outcome: 'failure', reason: 'factor_policy.kind_not_allowed', target_upn: TINA, actor_upn: ADMIN.upn });
    // Where the policy lets them be used, the same call issues them.
    await verifyByHand(m, ADMIN, FINN);
    const finn = await callAs(m, ADMIN, 'POST', `/api/admin/users/${FINN}/bypass-codes`, { count: 1, validitySeconds: 3600, ...JUSTIFY });
    expect(finn.statusCode, finn.body).toBe(201);
  });

  it('lets a policy leave bypass codes to the service desk: used but not made by the person, issued by the desk within its limit', async () => {
    const YARA = 'yara@policy.example';
    const desk = await m.db
      .insertInto('scim_group')
      .values({ display_name: 'Policy desk codes', external_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const scimId = await person(YARA, []);
    await m.db.insertInto('scim_group_member').values({ group_id: desk.id, user_id: scimId }).execute();
    await app(YARA);
    const created = await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/groups', {
      ...rule({ enrol: ['authenticator_app'], use: ['authenticator_app', 'bypass_codes'], maxPerKind: { bypass_codes: 2 } }),
      groupId: desk.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const own = await m.call(YARA, 'POST', '/bypass-codes', { count: 1, validitySeconds: 3600 });
    expect(errorOf(own).code).toBe('factor_policy.kind_not_allowed');
    await verifyByHand(m, ADMIN, YARA);
    const issued = await callAs(m, ADMIN, 'POST', `/api/admin/users/${YARA}/bypass-codes`, { count: 2, validitySeconds: 3600, ...JUSTIFY });
    expect(issued.statusCode, issued.body).toBe(201);
    const more = await callAs(m, ADMIN, 'POST', `/api/admin/users/${YARA}/bypass-codes`, { count: 1, validitySeconds: 3600, ...JUSTIFY });
    expect(more.statusCode).toBe(409);
    expect(errorOf(more)).toMatchObject({ code: 'factor_policy.limit_reached', details: { kind: 'bypass_codes', max: 2 } });
    const replacing = await callAs(m, ADMIN, 'POST', `/api/admin/users/${YARA}/bypass-codes`, {
      count: 2,
      validitySeconds: 3600,
      replaceExisting: true,
      ...JUSTIFY,
    });
    expect(replacing.statusCode, replacing.body).toBe(201);
    await callAs(m, ADMIN, 'DELETE', `/api/admin/factor-policy/groups/${desk.id}`);
  });

  it('refuses the lost-device wizard before it removes anything where the policy allows no bypass code', async () => {
    await verifyByHand(m, ADMIN, TINA);
    const [device] = devicesResponseSchema.parse((await m.call(TINA, 'GET', '/devices')).json()).devices;
    const before = await adminSnapshot(m.db);
    const removals = (await auditEvents(m.db, 'admin.user.lost_device.remove_device')).length;
    const res = await callAs(m, ADMIN, 'POST', `/api/admin/users/${TINA}/lost-device`, {
      deviceId: device!.id,
      confirmLastDevice: true,
      ...JUSTIFY,
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('factor_policy.kind_not_allowed');
    expect(await adminSnapshot(m.db)).toBe(before);
    expect(await auditEvents(m.db, 'admin.user.lost_device.remove_device')).toHaveLength(removals);
    const [last] = (await auditEvents(m.db, 'admin.user.lost_device.issue_bypass_code')).slice(-1);
    expect(last).toMatchObject({ outcome: 'failure', reason: 'factor_policy.kind_not_allowed', target_upn: TINA });
  });

  it('asks the policy again when a phone uses its activation link: refused then, the link stays unused and works once allowed', async () => {
    const scimId = await person(XAVI, []);
    const started = await m.call(XAVI, 'POST', '/devices/authenticator-app');
    expect(started.statusCode, started.body).toBe(201);
    const activation = authenticatorActivationSchema.parse(started.json());
    const token = activation.activationUrl.split('#activate=')[1]!;
    const phone = await softwareDevice();
    const activate = () =>
      m.t.app.inject({
        method: 'POST',
        url: '/authenticator/api/activate',
        payload: { token, publicKey: phone.publicKey, platform: 'android', deviceName: 'Pixel 8' },
      });
    // Made a contractor (security keys only) after the link was made.
    const member = { group_id: groups.Contractors!, user_id: scimId };
    await m.db.insertInto('scim_group_member').values(member).execute();
    const refused = await activate();
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatchObject({ code: 'factor_policy.kind_not_allowed', details: { kind: 'portal_authenticator' } });
    const state = await m.call(XAVI, 'GET', `/devices/authenticator-app/${activation.activationId}`);
    expect(authenticatorActivationStateSchema.parse(state.json()).state).toBe('waiting');
    expect(devicesResponseSchema.parse((await m.call(XAVI, 'GET', '/devices')).json()).devices).toEqual([]);
    const [last] = (await auditEvents(m.db, 'device.activate_app')).slice(-1);
    expect(last).toMatchObject({ outcome: 'failure', reason: 'factor_policy.kind_not_allowed', target_upn: XAVI });
    // Out of the group again: the same link activates the phone.
    await m.db.deleteFrom('scim_group_member').where('user_id', '=', scimId).execute();
    const ok = await activate();
    expect(ok.statusCode, ok.body).toBe(201);
  });
});

describe('step-up and sign-in accept only what the person may use', () => {
  it('refuses a step-up with a code of a disallowed device, and accepts one of an allowed device', async () => {
    const [code] = await demoTokenCodes(m.db, 'D100-0002', 1);
    const refused = await m.call(FINN, 'POST', '/step-up', { method: 'passcode', code });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('factor_policy.method_not_allowed');
    expect(errorOf(refused).details?.reason).toMatch(
      /Policy finance lets you confirm it is you only with: passkeys, security keys, authenticator apps, bypass codes/,
    );
    // The refused code was not used up: the token's counter did not move.
    expect(await demoTokenCodes(m.db, 'D100-0002', 1)).toEqual([code]);
    const ok = await m.call(FINN, 'POST', '/step-up', { method: 'passcode', code: totpAt(secrets[FINN]!) });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a bypass code where bypass codes may not be used', async () => {
    const created = await m.t.app.mfa.createBypassCodes(TINA, {
      count: 1,
      validitySeconds: 600,
      reuseCount: 1,
      replaceExisting: false,
      createdBy: 'test',
    });
    const res = await m.call(TINA, 'POST', '/step-up', { method: 'bypass', code: created.codes[0]!.code });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('factor_policy.method_not_allowed');
    const [last] = (await auditEvents(m.db, 'mfa.verify')).slice(-1);
    expect(last).toMatchObject({ outcome: 'failure', reason: 'factor_policy.method_not_allowed', target_upn: TINA });
  });

  /** Authorize → password → the second page of the embedded sign-in. */
  async function secondPage(upn: string) {
    const browser = new TestBrowser(injectTransport(m.t.app));
    const base = m.t.config.publicUrl;
    const scope = `openid profile offline_access user.read ${m.t.config.idp.mode === 'embedded' ? m.t.config.idp.scope : ''}`;
    const interaction = location(await browser.get(authorizeUrl(client, { scope, challenge: pkce().challenge, state: 'st' })), base);
    const login = await browser.get(interaction);
    const after = await browser.post(new URL(formAction(login.body)!, interaction), { username: upn, password: 'portal-demo-test' });
    const url = location(after, base);
    return { browser, url, page: await browser.get(url) };
  }

  it('offers the passcode field at sign-in and refuses a code of a disallowed device there', async () => {
    const { browser, url, page } = await secondPage(FINN);
    expect(page.body).toMatch(/<label for="passcode">Passcode<\/label>/);
    const [code] = await demoTokenCodes(m.db, 'D100-0002', 1);
    const res = await browser.post(new URL(verifyFormAction(page.body)!, url), { passcode: code! });
    expect(res.status).toBe(403);
    expect(res.body).toContain('Your organisation does not let you sign in with that kind of device or code');
  });

  it('offers nothing but the reason to someone none of whose devices may be used (a directory change), and keeps the devices', async () => {
    const scim = await m.db.selectFrom('scim_user').select('id').where('user_name', '=', WALT).executeTakeFirstOrThrow();
    // Finance lets bypass codes be used: the field stays, for a code from the service desk, and says why.
    await m.db.insertInto('scim_group_member').values({ group_id: groups.Finance!, user_id: scim.id }).execute();
    const finance = await secondPage(WALT);
    expect(finance.page.body).toMatch(/name="passcode"/);
    expect(finance.page.body).toContain('None of your devices may be used to sign in any more');
    // The contractors' policy lets none be used: nothing to enter, only the reason.
    await m.db.insertInto('scim_group_member').values({ group_id: groups.Contractors!, user_id: scim.id }).execute();
    const { page } = await secondPage(WALT);
    expect(page.status).toBe(200);
    expect(page.body).not.toMatch(/name="passcode"/);
    expect(page.body).toContain('Your organisation no longer lets you sign in with any of your devices');
    expect((await mine(WALT)).disallowedDevices).toEqual([tokenDevice[WALT]]);
    expect(await m.db.selectFrom('mfa_device').select('id').where('id', '=', tokenDevice[WALT]!).executeTakeFirst()).toBeDefined();
  });
});

describe('removing an override', () => {
  it('returns its members to the global policy (checked as any change), and answers 404 once it is gone', async () => {
    const res = await callAs(m, ADMIN, 'DELETE', `/api/admin/factor-policy/groups/${groups.Finance}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(factorPolicyOverrideSchema.parse(res.json()).group.name).toBe('Policy finance');
    expect((await mine(FINN)).disallowedDevices).toEqual([]);
    const gone = await callAs(m, ADMIN, 'DELETE', `/api/admin/factor-policy/groups/${groups.Finance}`);
    expect(gone.statusCode).toBe(404);
    expect(errorOf(gone).code).toBe('factor_policy.override_not_found');
  });
});
