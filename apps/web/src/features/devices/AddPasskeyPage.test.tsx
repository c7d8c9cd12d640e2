import '../../lib/test/setup';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Device } from '@mfa-portal/shared';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { profile } from '../../test/fixtures';

/**
 * jsdom has no authenticator: the browser's WebAuthn API (navigator.credentials, PublicKeyCredential)
 * is played here, below SimpleWebAuthn's browser library, which the page really uses.
 */
const bytes = (text: string) => new TextEncoder().encode(text).buffer;
const b64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
class FakePublicKeyCredential {}
const browser = {
  create: vi.fn(async (_options: unknown) => ({
    id: 'cred',
    rawId: bytes('cred'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: { clientDataJSON: bytes('{}'), attestationObject: bytes('att'), getTransports: () => ['internal'] },
    getClientExtensionResults: () => ({}),
  })),
  get: vi.fn(async (_options: unknown) => ({
    id: 'cred',
    rawId: bytes('cred'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: { clientDataJSON: bytes('{}'), authenticatorData: bytes('ad'), signature: bytes('sig'), userHandle: null },
    getClientExtensionResults: () => ({}),
  })),
};

const OPTIONS = {
  challengeId: '6b1f2a4e-5d9c-4e8b-9a7f-0c3d2e1b4a50',
  options: {
    challenge: 'Y2hhbGxlbmdl',
    rp: { id: 'localhost', name: 'Portal' },
    user: { id: 'dXNlcg', name: 'bob@example.com', displayName: 'bob@example.com' },
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    allowCredentials: [{ id: 'Y3JlZA', type: 'public-key' }],
  },
  expiresAt: '2030-01-01T00:05:00.000Z',
};
const passkey: Device = {
  id: 'pk1',
  kind: 'passkey',
  name: 'Work laptop',
  capabilities: ['webauthn'],
  phoneNumber: null,
  platform: null,
  serial: null,
  tokenType: null,
  authenticatorModel: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  lastUsedAt: null,
};

beforeEach(() => {
  browser.create.mockClear();
  browser.get.mockClear();
  vi.stubGlobal('PublicKeyCredential', FakePublicKeyCredential);
  Object.defineProperty(navigator, 'credentials', { value: browser, configurable: true });
});

describe('add a passkey or security key', () => {
  it('names it, lets the browser create it and stores it', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/passkey', profile: profile({ devices: [] }) });
    api
      .on('POST', '/api/me/webauthn/registration', () => json(OPTIONS, 201))
      .on('POST', '/api/me/webauthn/registration/verify', () => json(passkey, 201))
      .on('GET', '/api/me/devices', () => json({ devices: [passkey] }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Add a passkey or security key' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), ' Work laptop ');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('“Work laptop” has been added.')).toBeInTheDocument();
    expect(browser.create).toHaveBeenCalledTimes(1);
    expect(api.callsTo('POST', '/api/me/webauthn/registration/verify')[0]?.body).toMatchObject({
      challengeId: OPTIONS.challengeId,
      name: 'Work laptop',
      response: {
        id: 'cred',
        rawId: b64url('cred'),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        response: { clientDataJSON: b64url('{}'), attestationObject: b64url('att'), transports: ['internal'] },
      },
    });
  });

  it('after a step-up in between, asks for one more click before the browser creates it', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/passkey' });
    let asked = 0;
    api
      .on('POST', '/api/me/webauthn/registration', () =>
        asked++ === 0 ? apiError(403, 'auth.step_up_required', { maxAgeSeconds: 300 }) : json(OPTIONS, 201),
      )
      .on('POST', '/api/me/step-up', () =>
        json({
          active: true,
          method: 'passcode',
          verifiedAt: '2030-01-01T00:00:00.000Z',
          expiresAt: '2030-01-01T00:05:00.000Z',
          maxAgeSeconds: 300,
        }),
      )
      .on('POST', '/api/me/webauthn/registration/verify', () => json(passkey, 201));
    await user.type(await screen.findByLabelText('Name'), 'Work laptop');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const dialog = await findDialog('Confirm it is you');
    await user.type(within(dialog).getByLabelText('Code from your device'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await user.click(await screen.findByRole('button', { name: 'Add it now' }));
    expect(await screen.findByText('“Work laptop” has been added.')).toBeInTheDocument();
    expect(browser.create).toHaveBeenCalledTimes(1);
  });

  it('says so when the browser ceremony is cancelled, and stores nothing', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/passkey', profile: profile({ devices: [] }) });
    api.on('POST', '/api/me/webauthn/registration', () => json(OPTIONS, 201));
    browser.create.mockRejectedValueOnce(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'));
    await user.type(await screen.findByLabelText('Name'), 'Laptop');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The passkey or security key was not added');
    expect(alert).toHaveTextContent('Your passkey or security key did not answer');
    expect(api.callsTo('POST', '/api/me/webauthn/registration/verify')).toHaveLength(0);
  });

  it('on Duo, says to enrol in Duo’s own prompt instead of offering a form', async () => {
    await renderPortal({ path: '/devices/add/passkey', profile: profile({ provider: 'duo' }) });
    expect(await screen.findByText(/you add a passkey or security key in Duo’s own sign-in screen/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
  });

  it('the step-up dialog offers the passkey and steps up with it', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/', profile: profile({ devices: [passkey] }) });
    api
      .on('DELETE', '/api/me/devices/pk1', () => apiError(403, 'auth.step_up_required', { maxAgeSeconds: 300 }))
      .on('POST', '/api/me/step-up/webauthn/options', () => json(OPTIONS))
      .on('POST', '/api/me/step-up/webauthn', () =>
        json({
          active: true,
          method: 'webauthn',
          verifiedAt: '2030-01-01T00:00:00.000Z',
          expiresAt: '2030-01-01T00:05:00.000Z',
          maxAgeSeconds: 300,
        }),
      );
    const assertion = {
      id: 'cred',
      rawId: b64url('cred'),
      type: 'public-key',
      response: { authenticatorData: b64url('ad'), signature: b64url('sig') },
    };
    await user.click(await screen.findByRole('button', { name: 'Remove “Work laptop”' }));
    const confirm = await findDialog('Remove your only device?');
    await user.click(within(confirm).getByRole('checkbox'));
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    const dialog = await findDialog('Confirm it is you');
    await user.click(await within(dialog).findByRole('radio', { name: 'Use your passkey or security key' }));
    await user.click(within(dialog).getByRole('button', { name: 'Use your passkey or security key' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/api/me/step-up/webauthn')[0]?.body).toMatchObject({
        challengeId: OPTIONS.challengeId,
        response: assertion,
      }),
    );
    await waitFor(() => expect(api.callsTo('DELETE', '/api/me/devices/pk1')).toHaveLength(2));
  });
});
