import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderPortal } from '../../test/render-portal';
import { profile } from '../../test/fixtures';
import { toE164 } from './routes/AddPhonePage';
import { capabilitiesWithoutPush, json } from '../../lib/test/fake-api';

/** The cards of Add a device, in the order shown: their titles without the badge. */
const cardTitles = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent?.replace('Recommended', '').trim());

describe('add a device: the choice', () => {
  it('on Duo: a phone (recommended), a hardware token, then passkeys, which Duo adds in its own prompt; no authenticator app', async () => {
    await renderPortal({ path: '/devices/add', profile: profile({ provider: 'duo' }) });
    expect(await screen.findByRole('heading', { name: 'Phone Recommended' })).toBeInTheDocument();
    expect(cardTitles()).toEqual(['Phone', 'Hardware token (Duo D100)', 'Passkey or security key']);
    expect(screen.getByText(/We recommend your phone: you approve each sign-in in its app\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a phone' })).toHaveAttribute('href', '/devices/add/phone');
    expect(screen.queryByRole('link', { name: 'Add an authenticator app' })).not.toBeInTheDocument();
    expect(screen.getByText(/you add it in Duo’s own sign-in screen/)).toBeInTheDocument();
    expect(screen.getByRole('main')).not.toHaveTextContent(/cannot be added/);
  });

  it('on the builtin provider: a passkey (recommended), Portal Authenticator, an authenticator app, a hardware token; no phone by number', async () => {
    await renderPortal({ path: '/devices/add' });
    expect(screen.getByRole('heading', { level: 1, name: 'Add a device' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Passkey or security key Recommended' })).toBeInTheDocument();
    expect(cardTitles()).toEqual([
      'Passkey or security key',
      "Phone with the portal's authenticator app (push and passcodes)",
      'Authenticator app',
      'Hardware token (Duo D100)',
    ]);
    expect(screen.getByText(/We recommend a passkey or security key: it cannot be tricked by a fake website\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a passkey or security key' })).toHaveAttribute('href', '/devices/add/passkey');
    expect(screen.getByRole('link', { name: 'Set up Portal Authenticator' })).toHaveAttribute('href', '/devices/add/portal-authenticator');
    expect(screen.getByRole('link', { name: 'Add an authenticator app' })).toHaveAttribute('href', '/devices/add/authenticator');
    expect(screen.getByRole('link', { name: 'Add a hardware token' })).toHaveAttribute('href', '/devices/add/token');
    // Phones by number are Duo's: without them the portal's own app is the phone offered.
    expect(screen.queryByRole('link', { name: 'Add a phone' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a device' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('add a phone', () => {
  it('on a service without phones by number (builtin), points to Portal Authenticator and the other kinds, with no form that saves nothing', async () => {
    await renderPortal({ path: '/devices/add/phone' });
    expect(await screen.findByRole('heading', { level: 2, name: 'Set up your phone with Portal Authenticator' })).toBeInTheDocument();
    expect(screen.getByText(/This portal does not add phones by their number/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set up Portal Authenticator' })).toHaveAttribute('href', '/devices/add/portal-authenticator');
    const others = screen.getByText(/Or add another kind of device/);
    expect(
      within(others)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Add a passkey or security key', 'Add an authenticator app', 'Add a hardware token']);
    expect(screen.queryByLabelText('Phone number')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Country or region')).not.toBeInTheDocument();
    expect(screen.getByRole('main')).not.toHaveTextContent(/cannot be added/);
  });

  it('on a service with no phone channel at all, points to an authenticator app, and sends nothing', async () => {
    const { api } = await renderPortal({
      path: '/devices/add/phone',
      api: (a) => a.on('GET', '/api/me/capabilities', () => json(capabilitiesWithoutPush())),
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Use an authenticator app on your phone' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add an authenticator app' })).toHaveAttribute('href', '/devices/add/authenticator');
    expect(screen.queryByRole('link', { name: 'Set up Portal Authenticator' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add the phone' })).not.toBeInTheDocument();
    // Only the capabilities were asked for: nothing was sent.
    // Sends nothing: it reads (the capabilities, and the layout's campaign banner), and changes nothing.
    const calls = api.calls.filter((c) => c.path.startsWith('/api/')).map((c) => `${c.method} ${c.path}`);
    expect(calls).toContain('GET /api/me/capabilities');
    expect(calls.filter((c) => !c.startsWith('GET '))).toEqual([]);
  });

  it('normalises numbers to E.164', () => {
    expect(toE164('+1 201-555-0123', 'GB')).toEqual({ e164: '+12015550123', international: '+1 201 555 0123' });
    expect(toE164('not a number', 'US')).toBeNull();
  });
});
