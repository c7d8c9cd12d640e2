import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Device, PhoneActivationResponse } from '@mfa-portal/shared';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, json, type FakeApi } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { profile } from '../../test/fixtures';

/** Adding a phone when the organisation's MFA service takes phones (Duo): add, activate, text message. */

const added: Device = {
  id: 'p-new',
  kind: 'phone',
  name: 'Work phone',
  capabilities: [],
  phoneNumber: '+44 •••• ••3456',
  platform: 'Android',
  serial: null,
  tokenType: null,
  createdAt: '2025-05-01T12:00:00.000Z',
  lastUsedAt: null,
};
const activation: PhoneActivationResponse = {
  activationUrl: 'https://m-duo.example.com/activate/abc',
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
  installationUrl: 'https://m-duo.example.com/android/abc',
  expiresAt: '2025-05-02T12:00:00.000Z',
};
const stepUpOk = () =>
  json({
    active: true,
    method: 'passcode',
    verifiedAt: '2025-05-01T12:00:00.000Z',
    expiresAt: '2025-05-01T12:05:00.000Z',
    maxAgeSeconds: 300,
  });

const duo = profile({ provider: 'duo' });

async function fillPhone(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(await screen.findByLabelText('Country or region'), 'GB');
  await user.type(screen.getByLabelText('Phone number'), '07400 123456');
  await user.selectOptions(screen.getByLabelText('Kind of phone'), 'android');
  await user.clear(screen.getByLabelText('Name'));
  await user.type(screen.getByLabelText('Name'), 'Work phone');
}

describe('add a phone (the MFA service takes phones)', () => {
  it('shows progress while finding out what the service can do', async () => {
    let release: () => void = () => undefined;
    await renderPortal({
      path: '/devices/add/phone',
      profile: duo,
      api: (a: FakeApi) =>
        a.on(
          'GET',
          '/api/me/capabilities',
          () =>
            new Promise<Response>(
              (r) =>
                (release = () =>
                  r(
                    json({
                      provider: 'duo',
                      phones: true,
                      smsActivation: true,
                      push: true,
                      totp: false,
                      hardwareTokens: true,
                      renameHardwareTokens: false,
                    }),
                  )),
            ),
        ),
    });
    expect(await screen.findByText("Finding out what your organisation's multi-factor service can do...")).toBeInTheDocument();
    release();
    expect(await screen.findByRole('button', { name: 'Add the phone' })).toBeInTheDocument();
  });

  it('adds the number in E.164 with its platform and name, then shows the activation QR code and sends it by text message', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/devices/add/phone',
      profile: duo,
      api: (a) =>
        a
          .on('POST', '/api/me/devices/phone', () => json(added, 201))
          .on('GET', '/api/me/devices/p-new/activation', () => json(activation))
          .on('POST', '/api/me/devices/p-new/activation/sms', () => json({ sent: true, expiresAt: activation.expiresAt })),
    });
    expect(screen.queryByText('Phones cannot be added here')).not.toBeInTheDocument();
    expect(await screen.findByLabelText('Country or region')).toHaveValue('US');
    await fillPhone(user);
    expect(screen.getByTestId('e164-preview')).toHaveTextContent('Will be saved in international format: +447400123456');
    await user.click(screen.getByRole('button', { name: 'Add the phone' }));

    expect(await screen.findByText('“Work phone” (+44 •••• ••3456) has been added.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/devices/phone').map((c) => c.body)).toEqual([
      { number: '+447400123456', platform: 'android', name: 'Work phone' },
    ]);
    const qr = await screen.findByRole('img', { name: 'QR code that activates Duo Mobile on your phone' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(screen.getByRole('link', { name: 'open the activation link' })).toHaveAttribute('href', activation.activationUrl);
    expect(screen.getByRole('link', { name: 'Open the installation page' })).toHaveAttribute('href', activation.installationUrl);
    expect(api.callsTo('GET', '/api/me/devices/p-new/activation')).toHaveLength(1);
    // The code works for a day (Duo's default): the date is said, not only the time.
    expect(screen.getByText(/^The code and the link work until May 2, 2025, /)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send the link by text message' }));
    expect(
      await screen.findByText(/A text message with the activation link was sent to \+44 •••• ••3456\. It works until May 2, 2025, /),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/devices/p-new/activation/sms')).toHaveLength(1);

    // The app is set up on the phone (outside the portal): from now on the service says it takes pushes.
    const activated: Device = { ...added, capabilities: ['push', 'passcode'] };
    api.on('GET', '/account/getuserinfo', () => json({ ...duo, mfa: { ...duo.mfa, devices: [...duo.mfa.devices, activated] } }));
    api.on('GET', '/api/me/devices', () => json({ devices: [...duo.mfa.devices, activated] }));
    await user.click(screen.getByRole('button', { name: 'I have set it up' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(await screen.findByText('“Work phone” has been added.')).toBeInTheDocument();
    // The overview shows the phone as it is now, not as it was when it was added.
    expect(within(await screen.findByRole('article', { name: 'Work phone' })).getByText('Push, Passcode')).toBeInTheDocument();
  });

  it('refuses a number that is not valid for the country, before sending anything', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: '/devices/add/phone', profile: duo });
    await user.type(await screen.findByLabelText('Phone number'), '12345');
    expect(screen.getByTestId('e164-preview')).toBeEmptyDOMElement();
    await user.click(screen.getByRole('button', { name: 'Add the phone' }));
    expect(await screen.findByText('This does not look like a valid phone number for the country you chose.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/devices/phone')).toEqual([]);
  });

  it('asks the user to confirm it is them when they already have a device, then adds the phone (same input)', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/devices/add/phone',
      profile: duo,
      api: (a) =>
        a
          .on(
            'POST',
            '/api/me/devices/phone',
            () => apiError(403, 'auth.step_up_required'),
            () => json(added, 201),
          )
          .on('POST', '/api/me/step-up', stepUpOk)
          .on('GET', '/api/me/devices/p-new/activation', () => json(activation)),
    });
    await fillPhone(user);
    await user.click(screen.getByRole('button', { name: 'Add the phone' }));
    await user.type(within(await findDialog('Confirm it is you')).getByLabelText('Code from your device'), '123456{Enter}');
    expect(await screen.findByText('“Work phone” (+44 •••• ••3456) has been added.')).toBeInTheDocument();
    const bodies = api.callsTo('POST', '/api/me/devices/phone').map((c) => c.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
  });

  it('shows the translated reason when the phone is refused, and keeps what was typed', async () => {
    const user = userEvent.setup();
    await renderPortal({
      path: '/devices/add/phone',
      profile: duo,
      api: (a) => a.on('POST', '/api/me/devices/phone', () => apiError(503, 'mfa.provider_unavailable')),
    });
    await fillPhone(user);
    await user.click(screen.getByRole('button', { name: 'Add the phone' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The phone was not added');
    expect(screen.getByLabelText('Phone number')).toHaveValue('07400 123456');
  });

  it('says when the activation code cannot be prepared, and offers to try again', async () => {
    const user = userEvent.setup();
    await renderPortal({
      path: '/devices/add/phone',
      profile: duo,
      api: (a) =>
        a
          .on('POST', '/api/me/devices/phone', () => json(added, 201))
          .on(
            'GET',
            '/api/me/devices/p-new/activation',
            () => apiError(503, 'mfa.provider_unavailable'),
            () => json(activation),
          ),
    });
    await fillPhone(user);
    await user.click(screen.getByRole('button', { name: 'Add the phone' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The activation code could not be prepared');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('img', { name: 'QR code that activates Duo Mobile on your phone' })).toBeInTheDocument();
  });

  it('offers no text message when the service cannot send one', async () => {
    const user = userEvent.setup();
    await renderPortal({
      path: '/devices/add/phone',
      profile: duo,
      api: (a) =>
        a
          .on('GET', '/api/me/capabilities', () =>
            json({
              provider: 'duo',
              phones: true,
              smsActivation: false,
              push: true,
              totp: false,
              hardwareTokens: true,
              renameHardwareTokens: false,
            }),
          )
          .on('POST', '/api/me/devices/phone', () => json(added, 201))
          .on('GET', '/api/me/devices/p-new/activation', () => json(activation)),
    });
    await fillPhone(user);
    await user.click(screen.getByRole('button', { name: 'Add the phone' }));
    expect(await screen.findByRole('img', { name: 'QR code that activates Duo Mobile on your phone' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send the link by text message' })).not.toBeInTheDocument();
  });

  it('explains when the capabilities cannot be read (after the usual retries), offering no form', async () => {
    const { api } = await renderPortal({
      path: '/devices/add/phone',
      profile: duo,
      api: (a) => a.on('GET', '/api/me/capabilities', () => apiError(503, 'mfa.provider_unavailable')),
    });
    expect(await screen.findByRole('alert', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/me/capabilities')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Add the phone' })).not.toBeInTheDocument();
    expect(screen.queryByText('Phones cannot be added here')).not.toBeInTheDocument();
  }, 15_000);
});
