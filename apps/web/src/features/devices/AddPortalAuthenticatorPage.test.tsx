import '../../lib/test/setup';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthenticatorActivation, AuthenticatorActivationState, Device } from '@mfa-portal/shared';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, json, type FakeApi } from '../../lib/test/fake-api';
import { builtinWithApp, pixel } from '../../lib/test/portal-authenticator';
import { renderPortal } from '../../test/render-portal';
import { profile } from '../../test/fixtures';
import { activationPolling } from './api/get-authenticator-app-activation';
import { svgDataUrl } from './routes/AddAuthenticatorPage';

/** A phone with the portal's own authenticator app: link (QR and text), the wait, naming the phone. */

const PATH = '/devices/add/portal-authenticator';
const START = '/api/me/devices/authenticator-app';
const activation = (n = 1): AuthenticatorActivation => ({
  activationId: `6f1c2a7e-3b1d-4c8e-9a55-0d2f3e4a5b6${n}`,
  activationUrl: `https://portal.example.com/authenticator/#activate=${'A'.repeat(42)}${n}`,
  qrSvg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h${n}v1H0z"/></svg>`,
  expiresAt: '2025-05-01T14:15:00.000Z',
});
const state = (s: AuthenticatorActivationState['state'], device: Device | null = null): AuthenticatorActivationState => ({
  state: s,
  expiresAt: '2025-05-01T14:15:00.000Z',
  device,
});
const stepUpOk = () =>
  json({
    active: true,
    method: 'passcode',
    verifiedAt: '2025-05-01T14:00:00.000Z',
    expiresAt: '2025-05-01T14:05:00.000Z',
    maxAgeSeconds: 300,
  });

beforeEach(() => {
  activationPolling.intervalMs = 20;
});
afterEach(() => {
  activationPolling.intervalMs = 2000;
});

const pollPath = (n = 1) => `${START}/${activation(n).activationId}`;

describe('add a device: the portal authenticator choice', () => {
  it('offers the portal app where the service has it, second after passkeys, instead of the phone card it replaces', async () => {
    await renderPortal({ path: '/devices/add', api: (a) => a.on('GET', '/api/me/capabilities', builtinWithApp) });
    expect(await screen.findByRole('heading', { name: 'Passkey or security key Recommended' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: "Phone with the portal's authenticator app (push and passcodes)" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set up Portal Authenticator' })).toHaveAttribute('href', PATH);
    // A third-party app keeps its own card and name.
    expect(screen.getByRole('heading', { name: 'Authenticator app' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add a phone' })).not.toBeInTheDocument();
  });
});

describe('add a phone by number where the portal app is offered instead', () => {
  it('points to Portal Authenticator', async () => {
    await renderPortal({ path: '/devices/add/phone', api: (a) => a.on('GET', '/api/me/capabilities', builtinWithApp) });
    expect(await screen.findByRole('heading', { name: 'Set up your phone with Portal Authenticator' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set up Portal Authenticator' })).toHaveAttribute('href', PATH);
  });
});

describe('set up Portal Authenticator', () => {
  async function start(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByRole('button', { name: 'Show the QR code and link' }));
    return screen.findByRole('img', { name: "QR code of your activation link: scan it with your phone's camera" });
  }

  it('on a phone offers first to open the link on this phone, in a new tab, keeping the QR code and the text', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    );
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: PATH, profile: profile({ devices: [] }) });
    api.on('POST', START, () => json(activation(), 201)).on('GET', pollPath(), () => json(state('waiting')));
    const qr = await start(user);
    const open = screen.getByRole('link', { name: 'Open on this phone (opens in a new tab)' });
    expect(open).toHaveAttribute('href', activation().activationUrl);
    expect(open).toHaveAttribute('target', '_blank');
    expect(open.compareDocumentPosition(qr) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByTestId('activation-url')).toHaveTextContent(activation().activationUrl);
  });

  it('on a desktop offers no link to open here', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: PATH, profile: profile({ devices: [] }) });
    api.on('POST', START, () => json(activation(), 201)).on('GET', pollPath(), () => json(state('waiting')));
    await start(user);
    expect(screen.queryByRole('link', { name: /Open on this phone/ })).not.toBeInTheDocument();
  });

  it('shows the QR code and the link as text with a copy button, waits for the phone, then names it and lists it', async () => {
    const user = userEvent.setup();
    let activated = false;
    const named: Device = { ...pixel, name: 'Work phone' };
    const { api } = await renderPortal({ path: PATH, profile: profile({ devices: [] }) });
    expect(screen.getByRole('heading', { level: 1, name: 'Set up Portal Authenticator on your phone' })).toBeInTheDocument();
    api
      .on('POST', START, () => json(activation(), 201))
      .on('GET', pollPath(), () => json(activated ? state('activated', pixel) : state('waiting')))
      .on('PATCH', `/api/me/devices/${pixel.id}`, () => json(named))
      .on('GET', '/account/getuserinfo', () => json(profile({ devices: activated ? [named] : [] })));

    // A first device needs no step-up: the link comes at once.
    const qr = await start(user);
    expect(qr).toHaveAttribute('src', svgDataUrl(activation().qrSvg));
    expect(screen.getByTestId('activation-url')).toHaveTextContent(activation().activationUrl);
    expect(screen.getByText(/^This link works until .+, once\.$/)).toBeInTheDocument();
    const steps = screen.getByRole('region', { name: 'On your phone' });
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      "Open the camera and scan the QR code, or open the link in the phone's browser.",
      'Allow notifications when the app asks, so sign-in requests reach you.',
      "Add the app to your home screen (the browser's Share or menu button, then Add to Home Screen), so you can open it like any other app.",
    ]);

    // Copy, by keyboard: the confirmation stays written beside the button.
    const copy = screen.getByRole('button', { name: 'Copy the link' });
    copy.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Link copied.')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(activation().activationUrl);

    expect(screen.getByText('Waiting for your phone...').closest('[aria-live="polite"]')).not.toBeNull();
    await waitFor(() => expect(api.callsTo('GET', pollPath()).length).toBeGreaterThan(2));
    expect(screen.getByText('Waiting for your phone...')).toBeInTheDocument();

    activated = true;
    expect(await screen.findByRole('heading', { name: 'Your phone is connected' })).toBeInTheDocument();
    expect(
      screen.getByText('Portal Authenticator on Pixel 8 can now approve sign-ins and show passcodes. Give it a name you will recognise.'),
    ).toBeInTheDocument();
    // The link is used: it is no longer offered.
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument();
    const polls = api.callsTo('GET', pollPath()).length;
    const name = screen.getByLabelText('Name for this phone');
    expect(name).toHaveValue('Pixel 8');
    await user.clear(name);
    await user.type(name, 'Work phone');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Portal Authenticator on Work phone has been added.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(api.callsTo('PATCH', `/api/me/devices/${pixel.id}`).map((c) => c.body)).toEqual([{ name: 'Work phone' }]);
    const item = await screen.findByRole('article', { name: 'Portal Authenticator on Work phone' });
    expect(item).toHaveTextContent('Phone with Portal Authenticator (push and passcodes)');
    expect(item).toHaveTextContent('Push, Passcode');
    // Polling stopped once the phone was activated.
    expect(api.callsTo('GET', pollPath()).length).toBeLessThanOrEqual(polls + 1);
    expect(api.unexpected).toEqual([]);
  });

  it('asks to confirm it is you when a device exists, then makes the link', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: PATH,
      api: (a: FakeApi) =>
        a
          .on(
            'POST',
            START,
            () => apiError(403, 'auth.step_up_required'),
            () => json(activation(), 201),
          )
          .on('POST', '/api/me/step-up', stepUpOk)
          .on('GET', pollPath(), () => json(state('waiting'))),
    });
    await user.click(await screen.findByRole('button', { name: 'Show the QR code and link' }));
    const dialog = await findDialog('Confirm it is you');
    await user.type(within(dialog).getByLabelText('Code from your device'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('img', { name: /QR code of your activation link/ })).toBeInTheDocument();
    expect(api.callsTo('POST', START)).toHaveLength(2);
    expect(api.callsTo('POST', '/api/me/step-up').map((c) => c.body)).toEqual([{ method: 'passcode', code: '123456' }]);
  });

  it('says so plainly when the check is cancelled: no link is made', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({ path: PATH, api: (a) => a.on('POST', START, () => apiError(403, 'auth.step_up_required')) });
    await user.click(await screen.findByRole('button', { name: 'Show the QR code and link' }));
    await user.click(within(await findDialog('Confirm it is you')).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('You did not confirm it is you, so no link was made.')).toBeInTheDocument();
    expect(api.callsTo('POST', START)).toHaveLength(1);
  });

  it('keeps an expired link on screen as expired and makes a new one on request', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: PATH,
      profile: profile({ devices: [] }),
      api: (a) =>
        a
          .on(
            'POST',
            START,
            () => json(activation(1), 201),
            () => json(activation(2), 201),
          )
          .on(
            'GET',
            pollPath(1),
            () => json(state('waiting')),
            () => json(state('expired')),
          )
          .on('GET', pollPath(2), () => json(state('waiting'))),
    });
    await start(user);
    expect(await screen.findByText('This link has expired')).toBeInTheDocument();
    expect(
      screen.getByText('It was not used in time, so it no longer works. Make a new link and open it on your phone.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument();
    // It stays: a durable state, not a banner that goes away.
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.getByText('This link has expired')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Make a new link' }));
    expect(await screen.findByRole('img', { name: /QR code of your activation link/ })).toHaveAttribute(
      'src',
      svgDataUrl(activation(2).qrSvg),
    );
    expect(screen.getByTestId('activation-url')).toHaveTextContent(activation(2).activationUrl);
    expect(screen.queryByText('This link has expired')).not.toBeInTheDocument();
    expect(api.callsTo('POST', START)).toHaveLength(2);
  });

  it('treats a link the server no longer knows as expired', async () => {
    const user = userEvent.setup();
    await renderPortal({
      path: PATH,
      profile: profile({ devices: [] }),
      api: (a) =>
        a.on('POST', START, () => json(activation(), 201)).on('GET', pollPath(), () => apiError(410, 'authenticator.activation_expired')),
    });
    await user.click(await screen.findByRole('button', { name: 'Show the QR code and link' }));
    expect(await screen.findByText('This link has expired')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Make a new link' })).toBeInTheDocument();
  });
});
