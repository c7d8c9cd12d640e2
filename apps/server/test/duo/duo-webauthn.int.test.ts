import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicesResponseSchema } from '@mfa-portal/shared';
import { portalIdOf } from '../../src/mfa/duo/ids.js';
import { callAs, HELPDESK, verifyByHand } from '../admin-api.js';
import { errorOf, meTestApp, type MeTestApp } from '../me-api.js';
import type { DuoStandin } from './duo-standin.js';
import { duoEnv, seedDemoStaff, startStandin } from './support.js';

/**
 * Passkeys and security keys on Duo, against the Duo stand-in: they are enrolled in Duo's
 * own prompt, so the portal lists them (Admin API `GET /admin/v1/users/{id}/webauthncredentials`) beside
 * the other devices and removes them (`DELETE /admin/v1/webauthncredentials/{key}`), the user after a
 * step-up and the helpdesk for them; it never offers to register one.
 */

let standin: DuoStandin;
let m: MeTestApp;
const BOB = 'bob@example.com';
let bobKey: string;
let bobTouchId: string;

beforeAll(async () => {
  standin = await startStandin();
  const seed = seedDemoStaff(standin);
  bobKey = standin.addWebauthnCredential({
    userId: seed.bob.user_id,
    name: 'Blue YubiKey',
    label: 'Security Key',
    dateAdded: 1_900_000_000,
  }).webauthnkey;
  bobTouchId = standin.addWebauthnCredential({ userId: seed.bob.user_id, name: 'MacBook', label: 'Touch ID' }).webauthnkey;
  m = await meTestApp(duoEnv(standin, { MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '10000' }));
});
afterAll(async () => {
  await m?.close();
  await standin?.close();
});

describe('Duo WebAuthn credentials', () => {
  it('capabilities: listed and removed here, enrolled in Duo’s prompt', async () => {
    const res = await m.call(BOB, 'GET', '/capabilities');
    expect(res.json()).toMatchObject({ provider: 'duo', webauthn: false, webauthnEnrolledInProviderPrompt: true });
  });

  it('lists them beside the phone and the token, in Duo’s documented shapes (signed Admin API calls)', async () => {
    const res = await m.call(BOB, 'GET', '/devices');
    expect(res.statusCode).toBe(200);
    const devices = devicesResponseSchema.parse(res.json()).devices;
    expect(devices.map((d) => d.kind).sort()).toEqual(['hardware_token', 'passkey', 'phone', 'security_key']);
    expect(devices.find((d) => d.id === portalIdOf('webauthn', bobKey))).toMatchObject({
      kind: 'security_key',
      name: 'Blue YubiKey',
      capabilities: ['webauthn'],
      authenticatorModel: 'Security Key',
      createdAt: new Date(1_900_000_000_000).toISOString(),
    });
    expect(devices.find((d) => d.id === portalIdOf('webauthn', bobTouchId))).toMatchObject({ kind: 'passkey', name: 'MacBook' });
    expect(standin.requestsTo('GET', /^\/admin\/v1\/users\/[A-Z0-9]+\/webauthncredentials$/).length).toBeGreaterThan(0);
  });

  it('refuses to register one in the portal (409 mfa.not_supported_by_provider), changing nothing at Duo', async () => {
    const before = standin.snapshot();
    const res = await m.call(BOB, 'POST', '/webauthn/registration');
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('mfa.not_supported_by_provider');
    expect(standin.snapshot()).toBe(before);
  });

  it('the user removes one after a step-up; renaming is refused (Duo keeps the enrolled name)', async () => {
    const id = portalIdOf('webauthn', bobTouchId);
    const rename = await m.call(BOB, 'PATCH', `/devices/${id}`, { name: 'Other' });
    expect(errorOf(rename).code).toBe('mfa.not_supported_by_provider');
    const refused = await m.call(BOB, 'DELETE', `/devices/${id}`);
    expect(errorOf(refused).code).toBe('auth.step_up_required');
    expect(standin.webauthnCredentials.has(bobTouchId)).toBe(true);
    const [code] = standin.tokenCodes('D100-0001', 1);
    expect((await m.call(BOB, 'POST', '/step-up', { method: 'passcode', code })).statusCode).toBe(200);
    const res = await m.call(BOB, 'DELETE', `/devices/${id}`);
    expect(res.statusCode).toBe(204);
    expect(standin.webauthnCredentials.has(bobTouchId)).toBe(false);
    expect(standin.requestsTo('DELETE', new RegExp(`^/admin/v1/webauthncredentials/${bobTouchId}$`))).toHaveLength(1);
  });

  it('the helpdesk sees and removes a user’s security key', async () => {
    const detail = await callAs(m, HELPDESK, 'GET', `/api/admin/users/${BOB}`);
    expect(detail.statusCode).toBe(200);
    const id = portalIdOf('webauthn', bobKey);
    expect((detail.json() as { mfa: { devices: Array<{ id: string; kind: string }> } }).mfa.devices).toContainEqual(
      expect.objectContaining({ id, kind: 'security_key' }),
    );
    await verifyByHand(m, HELPDESK, BOB);
    const res = await callAs(m, HELPDESK, 'DELETE', `/api/admin/users/${BOB}/devices/${id}`, {
      reason: 'Key lost on the train',
      ticket: 'INC-2001',
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(standin.webauthnCredentials.has(bobKey)).toBe(false);
  });
});
