import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPortal } from '../../test/render-portal';
import { profile } from '../../test/fixtures';
import { toE164 } from './routes/AddPhonePage';
import { capabilitiesWithoutPush, json } from '../../lib/test/fake-api';

describe('add a device: the choice', () => {
  it('leaves out authenticator apps when the MFA service cannot take them (Duo), and recommends the first kind left', async () => {
    await renderPortal({ path: '/devices/add', profile: profile({ provider: 'duo' }) });
    expect(await screen.findByRole('heading', { name: 'Hardware token (Duo D100) Recommended' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add an authenticator app' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a phone' })).toHaveAttribute('href', '/devices/add/phone');
    // Duo enrols passkeys in its own prompt: the card stays, its page says where to go.
    expect(screen.getByRole('heading', { name: 'Passkey or security key' })).toBeInTheDocument();
  });

  it('offers a passkey or security key (recommended), an authenticator app, a hardware token and Portal Authenticator for phones', async () => {
    await renderPortal({ path: '/devices/add' });
    expect(screen.getByRole('heading', { level: 1, name: 'Add a device' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Passkey or security key Recommended' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a passkey or security key' })).toHaveAttribute('href', '/devices/add/passkey');
    expect(screen.getByRole('heading', { name: 'Authenticator app' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add an authenticator app' })).toHaveAttribute('href', '/devices/add/authenticator');
    expect(screen.getByRole('link', { name: 'Add a hardware token' })).toHaveAttribute('href', '/devices/add/token');
    expect(screen.getByRole('link', { name: 'Set up Portal Authenticator' })).toHaveAttribute('href', '/devices/add/portal-authenticator');
    // Phones by number are Duo's: without them the portal's own app is the phone offered.
    expect(screen.queryByRole('link', { name: 'Add a phone' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a device' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('add a phone', () => {
  it('on a service without phones by number (builtin), points to Portal Authenticator', async () => {
    await renderPortal({ path: '/devices/add/phone' });
    expect(await screen.findByText('Phones cannot be added here')).toBeInTheDocument();
    expect(screen.getByText(/This portal does not add phones by number/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'set up Portal Authenticator' })).toHaveAttribute('href', '/devices/add/portal-authenticator');
  });

  it('on a service with no phone channel at all, says so plainly, checks the number for the chosen country (US by default) and shows E.164', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/devices/add/phone',
      api: (a) => a.on('GET', '/api/me/capabilities', () => json(capabilitiesWithoutPush())),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add a phone' })).toBeInTheDocument();
    expect(await screen.findByText('Phones cannot be added here')).toBeInTheDocument();
    expect(screen.getByText(/it cannot send pushes or text messages/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add the phone' })).not.toBeInTheDocument();
    const country = screen.getByLabelText('Country or region');
    expect(country).toHaveValue('US');
    expect(screen.getByRole('option', { name: 'United States (+1)' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Phone number'), '12345');
    await user.click(screen.getByRole('button', { name: 'Check the number' }));
    expect(await screen.findByText('This does not look like a valid phone number for the country you chose.')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Phone number'));
    await user.type(screen.getByLabelText('Phone number'), '(201) 555-0123');
    await user.click(screen.getByRole('button', { name: 'Check the number' }));
    expect(await screen.findByText('+1 201 555 0123 is a valid number')).toBeInTheDocument();
    expect(screen.getByText('In international format: +12015550123. It has not been saved.')).toBeInTheDocument();

    await user.selectOptions(country, 'GB');
    await user.clear(screen.getByLabelText('Phone number'));
    await user.type(screen.getByLabelText('Phone number'), '07400 123456');
    await user.click(screen.getByRole('button', { name: 'Check the number' }));
    expect(await screen.findByText('+44 7400 123456 is a valid number')).toBeInTheDocument();
    // Only the capabilities were asked for: nothing was sent.
    expect(api.calls.filter((c) => c.path.startsWith('/api/')).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/me/capabilities']);
  });

  it('normalises numbers to E.164', () => {
    expect(toE164('+1 201-555-0123', 'GB')).toEqual({ e164: '+12015550123', international: '+1 201 555 0123' });
    expect(toE164('not a number', 'US')).toBeNull();
  });
});
