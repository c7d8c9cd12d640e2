import '../../lib/test/setup';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Device, TotpEnrolmentResponse } from '@mfa-portal/shared';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { profile } from '../../test/fixtures';
import { groupSecret, svgDataUrl } from './routes/AddAuthenticatorPage';

const enrolment: TotpEnrolmentResponse = {
  enrolmentId: '6f1c2a7e-3b1d-4c8e-9a55-0d2f3e4a5b6c',
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/MFA%20portal:bob%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=MFA%20portal',
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h1v1H0z"/></svg>',
  expiresAt: '2025-05-01T14:15:00.000Z',
};

const created: Device = {
  id: 'd9',
  kind: 'authenticator',
  name: 'Work phone',
  capabilities: ['passcode'],
  phoneNumber: null,
  platform: null,
  serial: null,
  tokenType: null,
  createdAt: '2025-05-01T14:06:00.000Z',
  lastUsedAt: null,
};

const stepUpOk = () =>
  json({
    active: true,
    method: 'passcode',
    verifiedAt: '2025-05-01T14:00:00.000Z',
    expiresAt: '2025-05-01T14:05:00.000Z',
    maxAgeSeconds: 300,
  });

async function startEnrolment(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Show my QR code' }));
  return screen.findByRole('img', { name: 'QR code to scan with your authenticator app' });
}

describe('add an authenticator app', () => {
  it('shows the QR code as a data: image and the key for manual entry, then confirms with the first code', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/authenticator', profile: profile({ devices: [] }) });
    expect(screen.getByRole('heading', { level: 1, name: 'Add an authenticator app' })).toBeInTheDocument();
    api
      .on('POST', '/api/me/devices/authenticator', () => json(enrolment, 201))
      .on('POST', `/api/me/devices/authenticator/${enrolment.enrolmentId}/confirm`, () => json(created, 201))
      .on('GET', '/api/me/devices', () => json({ devices: [created] }))
      .on('GET', '/account/getuserinfo', () => json(profile({ devices: [created] })));

    const qr = await startEnrolment(user);
    expect(qr).toHaveAttribute('src', svgDataUrl(enrolment.qrSvg));
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(atob(qr.getAttribute('src')!.split(',')[1]!)).toBe(enrolment.qrSvg);
    expect(screen.getByText(groupSecret(enrolment.secret))).toBeInTheDocument();
    expect(groupSecret(enrolment.secret)).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(screen.getByRole('button', { name: 'Copy the key' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Code from the app'), '123456');
    const name = screen.getByLabelText('Name for this device');
    expect(name).toHaveValue('Authenticator app');
    await user.clear(name);
    await user.type(name, 'Work phone{Enter}');

    expect(await screen.findByText('Your authenticator app “Work phone” has been added.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(api.callsTo('POST', `/api/me/devices/authenticator/${enrolment.enrolmentId}/confirm`)[0]?.body).toEqual({
      code: '123456',
      name: 'Work phone',
    });
    expect(await screen.findByRole('article', { name: 'Work phone' })).toBeInTheDocument();
  });

  it('copies the key to the clipboard and says so', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/authenticator' });
    api.on('POST', '/api/me/devices/authenticator', () => json(enrolment, 201));
    await startEnrolment(user);
    await user.click(screen.getByRole('button', { name: 'Copy the key' }));
    expect(await navigator.clipboard.readText()).toBe(enrolment.secret);
    expect(await screen.findByText('Copied to the clipboard.')).toBeInTheDocument();
  });

  it('asks to confirm it is the user when a device exists, then shows the QR code', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/authenticator' });
    api
      .on(
        'POST',
        '/api/me/devices/authenticator',
        () => apiError(403, 'auth.step_up_required'),
        () => json(enrolment, 201),
      )
      .on('POST', '/api/me/step-up', stepUpOk);
    await user.click(screen.getByRole('button', { name: 'Show my QR code' }));
    const stepUp = await findDialog('Confirm it is you');
    await user.type(within(stepUp).getByLabelText('Code from your device'), '123456{Enter}');
    expect(await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/devices/authenticator')).toHaveLength(2);
  });

  it('keeps the typed code and name when the confirmation needs a step-up, and sends them again after it', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/authenticator' });
    api
      .on('POST', '/api/me/devices/authenticator', () => json(enrolment, 201))
      .on(
        'POST',
        `/api/me/devices/authenticator/${enrolment.enrolmentId}/confirm`,
        () => apiError(403, 'auth.step_up_required'),
        () => json(created, 201),
      )
      .on('POST', '/api/me/step-up', stepUpOk);
    await startEnrolment(user);
    await user.type(screen.getByLabelText('Code from the app'), '246810');
    await user.clear(screen.getByLabelText('Name for this device'));
    await user.type(screen.getByLabelText('Name for this device'), 'Work phone{Enter}');
    const stepUp = await findDialog('Confirm it is you');
    expect(screen.getByLabelText('Code from the app')).toHaveValue('246810');
    await user.type(within(stepUp).getByLabelText('Code from your device'), '135790{Enter}');
    expect(await screen.findByText('Your authenticator app “Work phone” has been added.')).toBeInTheDocument();
    const confirms = api.callsTo('POST', `/api/me/devices/authenticator/${enrolment.enrolmentId}/confirm`);
    expect(confirms.map((c) => c.body)).toEqual([
      { code: '246810', name: 'Work phone' },
      { code: '246810', name: 'Work phone' },
    ]);
  });

  it('shows the translated reason when the first code is wrong, and offers to start again when the setup expired', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/authenticator' });
    api
      .on('POST', '/api/me/devices/authenticator', () => json(enrolment, 201))
      .on(
        'POST',
        `/api/me/devices/authenticator/${enrolment.enrolmentId}/confirm`,
        () => apiError(422, 'mfa.code_invalid', { field: 'code' }),
        () => apiError(410, 'enrolment.expired'),
      );
    await startEnrolment(user);
    await user.type(screen.getByLabelText('Code from the app'), '000000{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not correct. Please check it and try again.');
    await user.click(screen.getByRole('button', { name: 'Add the authenticator app' }));
    expect(await screen.findByText('That setup took too long and has expired. Please start adding the device again.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start again' }));
    expect(await screen.findByRole('button', { name: 'Show my QR code' })).toBeInTheDocument();
  });

  it('says nothing changed when the user cancels the step-up', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/authenticator' });
    api.on('POST', '/api/me/devices/authenticator', () => apiError(403, 'auth.step_up_required'));
    await user.click(screen.getByRole('button', { name: 'Show my QR code' }));
    await user.click(within(await findDialog('Confirm it is you')).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Nothing was changed, because you did not confirm it is you.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows an error with a way to retry when the portal cannot be reached', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/authenticator' });
    api.on('POST', '/api/me/devices/authenticator', () => {
      throw new TypeError('Failed to fetch');
    });
    await user.click(screen.getByRole('button', { name: 'Show my QR code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The portal could not be reached. Please check your connection and try again.',
    );
  });

  describe('on a phone', () => {
    const PHONE_UA =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

    it("offers first a link that opens the authenticator app with the QR code's address, then the key with Copy, then the QR code", async () => {
      vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(PHONE_UA);
      const user = userEvent.setup();
      const { api } = await renderPortal({ path: '/devices/add/authenticator', profile: profile({ devices: [] }) });
      api.on('POST', '/api/me/devices/authenticator', () => json(enrolment, 201));
      const qr = await startEnrolment(user);
      const open = screen.getByRole('link', { name: 'Open in your authenticator app' });
      expect(open).toHaveAttribute('href', enrolment.otpauthUri);
      expect(screen.getByTestId('totp-secret')).toHaveTextContent(groupSecret(enrolment.secret));
      expect(screen.getByRole('button', { name: 'Copy the key' })).toBeInTheDocument();
      // The link comes before the key, and the key before the QR code (for another phone).
      expect(open.compareDocumentPosition(screen.getByTestId('totp-secret')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      expect(screen.getByTestId('totp-secret').compareDocumentPosition(qr) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    });

    it('never links to an address that is not otpauth://totp/', async () => {
      vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(PHONE_UA);
      const user = userEvent.setup();
      const { api } = await renderPortal({ path: '/devices/add/authenticator', profile: profile({ devices: [] }) });
      api.on('POST', '/api/me/devices/authenticator', () => json({ ...enrolment, otpauthUri: 'javascript:alert(1)' }, 201));
      await startEnrolment(user);
      expect(screen.queryByRole('link', { name: 'Open in your authenticator app' })).not.toBeInTheDocument();
    });
  });

  it('on a desktop shows the QR code first and no app link', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/authenticator', profile: profile({ devices: [] }) });
    api.on('POST', '/api/me/devices/authenticator', () => json(enrolment, 201));
    const qr = await startEnrolment(user);
    expect(screen.queryByRole('link', { name: 'Open in your authenticator app' })).not.toBeInTheDocument();
    expect(qr.compareDocumentPosition(screen.getByTestId('totp-secret')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
