import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deviceSchema, stepUpStatusSchema, webauthnOptionsResponseSchema, ROLE_HELPDESK, ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import { createSoftAuthenticator } from '../../../test/webauthn/soft-authenticator.js';
import { addUser, advance, auditEvents, devicesOf, errorOf, meTestApp, mfaSnapshot, type MeTestApp } from '../../../test/me-api.js';

/**
 * Passkeys and security keys through the API (issue 18), answered by a software authenticator: what
 * a good response gives, and what every bad one (malformed, replayed, wrong origin or RP ID, no user
 * verification, expired, counter gone back, model not allowed) refuses without storing anything.
 */

const ORIGIN = 'https://localhost:8443';
const RP_ID = 'localhost';
const YUBIKEY_5 = 'cb69481e-8ff7-4039-93ec-0a2729a154a8';

describe('WebAuthn (builtin provider)', () => {
  let m: MeTestApp;
  const as = async (upn: string, roles: string[], method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    m.t.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${await m.token(upn, roles)}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const options = async (upn: string, path: string, roles: string[] = []) => {
    const res = await as(upn, roles, 'POST', `/api/me${path}`);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return webauthnOptionsResponseSchema.parse(res.json()) as unknown as {
      challengeId: string;
      options: { challenge: string; rp?: { id?: string } };
    };
  };
  const snapshot = async () =>
    JSON.stringify([await mfaSnapshot(m.db), await m.db.selectFrom('mfa_webauthn_credential').selectAll().orderBy('device_id').execute()]);

  beforeAll(async () => {
    m = await meTestApp({ MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '1000' });
    for (const upn of ['pk@example.com', 'sk@example.com', 'bad@example.com', 'boss@example.com', 'model@example.com', 'exp@example.com'])
      await addUser(m.db, upn);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await m.close();
  });

  it('GET /api/me/capabilities offers WebAuthn with the builtin provider', async () => {
    const res = await m.call('pk@example.com', 'GET', '/capabilities');
    expect(res.json()).toMatchObject({ provider: 'builtin', webauthn: true, webauthnEnrolledInProviderPrompt: false });
  });

  it('registers a passkey as a first device (RP ID = the portal host, UV required, attestation none, the same algorithms on every Node), then steps up with it', async () => {
    const auth = createSoftAuthenticator({
      origin: ORIGIN,
      rpId: RP_ID,
      backupEligible: true,
      transports: ['internal', 'hybrid'],
      attachment: 'platform',
    });
    const reg = await options('pk@example.com', '/webauthn/registration');
    expect(reg.options).toMatchObject({
      rp: { id: RP_ID },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    });
    // EdDSA, ES256 and RS256, and no ML-DSA even where this Node could verify it: a key the older
    // supported runtimes cannot check would lock its owner out after a move between them.
    expect((reg.options as unknown as { pubKeyCredParams: { alg: number }[] }).pubKeyCredParams.map((p) => p.alg)).toEqual([-8, -7, -257]);
    const res = await m.call('pk@example.com', 'POST', '/webauthn/registration/verify', {
      challengeId: reg.challengeId,
      name: 'My laptop',
      response: auth.register(reg.options),
    });
    expect(res.statusCode, res.body).toBe(201);
    const device = deviceSchema.parse(res.json());
    expect(device).toMatchObject({ kind: 'passkey', name: 'My laptop', capabilities: ['webauthn'], authenticatorModel: null });
    expect((await auditEvents(m.db, 'device.webauthn_register')).at(-1)).toMatchObject({
      outcome: 'success',
      target_upn: 'pk@example.com',
    });

    const req = await options('pk@example.com', '/step-up/webauthn/options');
    const up = await m.call('pk@example.com', 'POST', '/step-up/webauthn', {
      challengeId: req.challengeId,
      response: auth.assert(req.options),
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(stepUpStatusSchema.parse(up.json())).toMatchObject({ active: true, method: 'webauthn' });
    const [listed] = await devicesOf(m, 'pk@example.com');
    expect(listed?.lastUsedAt).not.toBeNull();
  });

  it('classifies a roaming USB key as a security key and names a known model; a second device needs a step-up', async () => {
    const auth = createSoftAuthenticator({
      origin: ORIGIN,
      rpId: RP_ID,
      aaguid: YUBIKEY_5,
      transports: ['usb'],
      attachment: 'cross-platform',
    });
    const first = await options('sk@example.com', '/webauthn/registration');
    const res = await m.call('sk@example.com', 'POST', '/webauthn/registration/verify', {
      challengeId: first.challengeId,
      name: 'Blue key',
      response: auth.register(first.options),
    });
    expect(res.json()).toMatchObject({ kind: 'security_key', authenticatorModel: 'YubiKey 5 Series' });
    const second = await m.call('sk@example.com', 'POST', '/webauthn/registration');
    expect(second.statusCode).toBe(403);
    expect(errorOf(second).code).toBe('auth.step_up_required');
  });

  describe('refusals store nothing', () => {
    const auth = createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID, transports: ['internal'] });
    beforeAll(async () => {
      const reg = await options('bad@example.com', '/webauthn/registration');
      const ok = await m.call('bad@example.com', 'POST', '/webauthn/registration/verify', {
        challengeId: reg.challengeId,
        name: 'Phone',
        response: auth.register(reg.options),
      });
      expect(ok.statusCode).toBe(201);
      // A second registration (the wrong ones below) needs a step-up: with this passkey.
      const req = await options('bad@example.com', '/step-up/webauthn/options');
      const up = await m.call('bad@example.com', 'POST', '/step-up/webauthn', {
        challengeId: req.challengeId,
        response: auth.assert(req.options),
      });
      expect(up.statusCode).toBe(200);
    });

    const refused = async (
      path: string,
      answer: (o: { challenge: string }) => unknown,
      status: number,
      code: string,
      body: Record<string, unknown> = {},
    ) => {
      const opts = await options('bad@example.com', path === '/step-up/webauthn' ? '/step-up/webauthn/options' : '/webauthn/registration');
      const before = await snapshot();
      const res = await m.call('bad@example.com', 'POST', path, { challengeId: opts.challengeId, response: answer(opts.options), ...body });
      expect(res.statusCode, res.body).toBe(status);
      expect(errorOf(res).code).toBe(code);
      expect(await snapshot()).toBe(before);
      return res;
    };

    it('a wrong origin, a wrong RP ID or no user verification: 400 webauthn.verification_failed', async () => {
      for (const o of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { userVerified: false }]) {
        const reg = createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID });
        const res = await refused('/webauthn/registration/verify', (c) => reg.register(c, o), 400, 'webauthn.verification_failed', {
          name: 'X',
        });
        expect(errorOf(res).details?.field).toBe('response');
        await refused(
          '/step-up/webauthn',
          (c) => auth.assert(c, { ...o, signCount: auth.credentials[0]!.signCount + 1 }),
          400,
          'webauthn.verification_failed',
        );
      }
    });

    it('a replayed assertion: the challenge is single use (404), and an old answer does not fit a new challenge (400)', async () => {
      const opts = await options('bad@example.com', '/step-up/webauthn/options');
      const answer = auth.assert(opts.options);
      expect(
        (await m.call('bad@example.com', 'POST', '/step-up/webauthn', { challengeId: opts.challengeId, response: answer })).statusCode,
      ).toBe(200);
      const before = await snapshot();
      const again = await m.call('bad@example.com', 'POST', '/step-up/webauthn', { challengeId: opts.challengeId, response: answer });
      expect(again.statusCode).toBe(404);
      expect(errorOf(again).code).toBe('webauthn.challenge_not_found');
      await refused('/step-up/webauthn', () => answer, 400, 'webauthn.verification_failed');
      expect(await snapshot()).toBe(before);
    });

    it('a signature counter that goes back: 403 webauthn.counter_regressed, audited as a possible clone', async () => {
      const count = auth.credentials[0]!.signCount;
      await refused('/step-up/webauthn', (c) => auth.assert(c, { signCount: count - 1 }), 403, 'webauthn.counter_regressed');
      expect((await auditEvents(m.db, 'webauthn.possible_clone')).at(-1)).toMatchObject({
        target_upn: 'bad@example.com',
        outcome: 'failure',
      });
      auth.credentials[0]!.signCount = count;
    });

    it('malformed bodies: 400 request.invalid with the field', async () => {
      const before = await snapshot();
      for (const body of [
        {},
        { challengeId: 'nope', response: {} },
        { challengeId: crypto.randomUUID(), response: { id: '!!', rawId: 'x', type: 'public-key', response: {} } },
      ]) {
        const res = await m.call('bad@example.com', 'POST', '/step-up/webauthn', body);
        expect(res.statusCode).toBe(400);
        expect(errorOf(res)).toMatchObject({ code: 'request.invalid', details: { field: expect.any(String) } });
      }
      const res = await m.call('bad@example.com', 'POST', '/webauthn/registration/verify', 'not json');
      expect(res.statusCode).toBe(400);
      expect(await snapshot()).toBe(before);
    });

    it('an expired challenge: 410 webauthn.challenge_expired', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const opts = await options('bad@example.com', '/step-up/webauthn/options');
        advance(301);
        const before = await snapshot();
        const res = await m.call('bad@example.com', 'POST', '/step-up/webauthn', {
          challengeId: opts.challengeId,
          response: auth.assert(opts.options),
        });
        expect(res.statusCode).toBe(410);
        expect(errorOf(res).code).toBe('webauthn.challenge_expired');
        expect(await snapshot()).toBe(before);
      } finally {
        vi.useRealTimers();
      }
    });

    it('another user cannot answer my challenge', async () => {
      const opts = await options('bad@example.com', '/step-up/webauthn/options');
      const res = await m.call('pk@example.com', 'POST', '/step-up/webauthn', {
        challengeId: opts.challengeId,
        response: auth.assert(opts.options),
      });
      expect(res.statusCode).toBe(404);
    });
  });

  it('removes a passkey like any device: step-up first, and the last-device confirmation', async () => {
    const [device] = await devicesOf(m, 'sk@example.com');
    const refused = await m.call('sk@example.com', 'DELETE', `/devices/${device!.id}?confirmLastDevice=true`);
    expect(errorOf(refused).code).toBe('auth.step_up_required');
  });

  describe('the Solution Administrator policy', () => {
    it('only a Solution Administrator reads or changes it (audited); bad AAGUIDs are 400', async () => {
      expect((await as('alice@example.com', [], 'GET', '/api/admin/webauthn/policy')).statusCode).toBe(403);
      expect(
        (
          await as('helpdesk@example.com', [ROLE_HELPDESK], 'PUT', '/api/admin/webauthn/policy', {
            aaguidAllowList: [],
            requirePhishingResistantForProtected: true,
          })
        ).statusCode,
      ).toBe(403);
      const bad = await as('admin@example.com', [ROLE_SOLUTION_ADMIN], 'PUT', '/api/admin/webauthn/policy', {
        aaguidAllowList: ['yubikey'],
        requirePhishingResistantForProtected: false,
      });
      expect(bad.statusCode).toBe(400);
      expect(errorOf(bad).details?.field).toBe('aaguidAllowList.0');
      const ok = await as('admin@example.com', [ROLE_SOLUTION_ADMIN], 'PUT', '/api/admin/webauthn/policy', {
        aaguidAllowList: [YUBIKEY_5.toUpperCase()],
        requirePhishingResistantForProtected: false,
      });
      expect(ok.json()).toMatchObject({ aaguidAllowList: [YUBIKEY_5], updatedBy: 'admin@example.com' });
      expect((await auditEvents(m.db, 'admin.webauthn_policy.update')).at(-1)).toMatchObject({
        actor_upn: 'admin@example.com',
        outcome: 'success',
      });
    });

    it('with an allow-list, another model is refused (403 webauthn.authenticator_not_allowed) and nothing is stored', async () => {
      const other = createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID });
      const opts = await options('model@example.com', '/webauthn/registration');
      const before = await snapshot();
      const res = await m.call('model@example.com', 'POST', '/webauthn/registration/verify', {
        challengeId: opts.challengeId,
        name: 'K',
        response: other.register(opts.options),
      });
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).code).toBe('webauthn.authenticator_not_allowed');
      expect(await snapshot()).toBe(before);
      const yubi = createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID, aaguid: YUBIKEY_5, transports: ['usb'] });
      const again = await options('model@example.com', '/webauthn/registration');
      const ok = await m.call('model@example.com', 'POST', '/webauthn/registration/verify', {
        challengeId: again.challengeId,
        name: 'K',
        response: yubi.register(again.options),
      });
      expect(ok.statusCode).toBe(201);
      await as('admin@example.com', [ROLE_SOLUTION_ADMIN], 'PUT', '/api/admin/webauthn/policy', {
        aaguidAllowList: [],
        requirePhishingResistantForProtected: false,
      });
    });

    it('requiring a phishing-resistant factor: a protected account steps up with WebAuthn only', async () => {
      // Registered while the token carried no restricted role (protected holders cannot change their own MFA).
      const auth = createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID, transports: ['internal'] });
      const reg = await options('boss@example.com', '/webauthn/registration');
      await m.call('boss@example.com', 'POST', '/webauthn/registration/verify', {
        challengeId: reg.challengeId,
        name: 'Laptop',
        response: auth.register(reg.options),
      });
      const roles = [ROLE_HELPDESK];
      const set = await as('admin@example.com', [ROLE_SOLUTION_ADMIN], 'PUT', '/api/admin/webauthn/policy', {
        aaguidAllowList: [],
        requirePhishingResistantForProtected: true,
      });
      expect(set.statusCode).toBe(200);

      const byCode = await as('boss@example.com', roles, 'POST', '/api/me/step-up', { method: 'bypass', code: '123456789' });
      expect(byCode.statusCode).toBe(403);
      expect(errorOf(byCode).code).toBe('auth.phishing_resistant_required');
      // A staff account is not affected by the requirement.
      const staff = await as('bad@example.com', [], 'POST', '/api/me/step-up', { method: 'passcode', code: '000000' });
      expect(errorOf(staff).code).not.toBe('auth.phishing_resistant_required');

      const opts = await options('boss@example.com', '/step-up/webauthn/options', roles);
      const ok = await as('boss@example.com', roles, 'POST', '/api/me/step-up/webauthn', {
        challengeId: opts.challengeId,
        response: auth.assert(opts.options),
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ active: true, method: 'webauthn' });
      await as('admin@example.com', [ROLE_SOLUTION_ADMIN], 'PUT', '/api/admin/webauthn/policy', {
        aaguidAllowList: [],
        requirePhishingResistantForProtected: false,
      });
    });
  });
});
