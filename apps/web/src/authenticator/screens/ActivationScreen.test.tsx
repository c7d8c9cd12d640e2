import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { activateBodySchema } from '@mfa-portal/shared';
import { memoryStore } from '../lib/store';
import { fakeApi, json } from '../test/fake-api';
import { renderApp } from '../test/render';

const TOKEN = 'A'.repeat(43);
const ACTIVATED = {
  deviceId: '7d3f2a4e-1b2c-4d5e-8f90-123456789abc',
  account: { upn: 'bob@example.com', displayName: 'Bob Example' },
  passcode: { secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', algorithm: 'SHA1', digits: 6, period: 30, issuer: 'MFA Portal' },
};
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('setting up the phone from an activation link', () => {
  it('names the phone from what it says about itself, creates its key and is ready', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE);
    const api = fakeApi({
      'POST /authenticator/api/activate': () => json(201, ACTIVATED),
      'GET /authenticator/api/requests': () => json(200, { requests: [] }),
    });
    const store = memoryStore();
    renderApp(store, TOKEN);
    const heading1 = await screen.findByRole('heading', { name: 'Set up this phone' });
    await vi.waitFor(() => expect(heading1).toHaveFocus());
    const name = screen.getByLabelText('Name of this phone');
    await vi.waitFor(() => expect(name).toHaveValue('iPhone'), { timeout: 5000 });
    const user = userEvent.setup();
    await user.clear(name);
    await user.type(name, 'Bob’s iPhone');
    await user.click(screen.getByRole('button', { name: 'Set up this phone' }));

    const heading2 = await screen.findByRole('heading', { name: 'This phone is ready for bob@example.com' });
    await vi.waitFor(() => expect(heading2).toHaveFocus());
    const body = activateBodySchema.parse(api.calls.find((c) => c.method === 'POST')!.body);
    expect(body).toMatchObject({ token: TOKEN, platform: 'ios', deviceName: 'Bob’s iPhone', pushSubscription: null });
    const [stored] = await store.list();
    expect(stored).toMatchObject({ deviceId: ACTIVATED.deviceId, upn: 'bob@example.com', displayName: 'Bob Example' });
    expect(stored!.keys.privateKey.extractable).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Show my passcodes' }));
    expect(await screen.findByText('Passcode for bob@example.com')).toBeInTheDocument();
  });

  it('says that notifications cannot be shown here, and works without them', async () => {
    fakeApi({});
    renderApp(memoryStore(), TOKEN);
    expect(await screen.findByText(/This browser cannot show notifications here/)).toBeInTheDocument();
  });

  it.each([
    ['authenticator.activation_expired', 410, 'This activation link has expired.'],
    ['authenticator.activation_used', 409, 'This activation link has already been used.'],
    ['authenticator.activation_invalid', 404, 'This activation link is not valid.'],
  ])('explains %s in plain words and what to do', async (code, status, text) => {
    fakeApi({ 'POST /authenticator/api/activate': () => json(status, { code, message: 'x' }) });
    const store = memoryStore();
    renderApp(store, TOKEN);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Name of this phone'), 'Pixel 8');
    await user.click(screen.getByRole('button', { name: 'Set up this phone' }));
    const heading3 = await screen.findByRole('heading', { name: 'This phone could not be set up' });
    await vi.waitFor(() => expect(heading3).toHaveFocus());
    expect(screen.getByRole('alert')).toHaveTextContent(`${text} Ask for a new link on the portal's Add a device page.`);
    expect(await store.list()).toEqual([]);
  });

  it('says in the policy’s own words when the person’s factor policy no longer lets them add the app', async () => {
    const reason = 'The policy of Contractors allows adding only: security keys.';
    fakeApi({
      'POST /authenticator/api/activate': () =>
        json(403, { code: 'factor_policy.kind_not_allowed', message: 'x', details: { kind: 'portal_authenticator', reason } }),
    });
    const store = memoryStore();
    renderApp(store, TOKEN);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Name of this phone'), 'Pixel 8');
    await user.click(screen.getByRole('button', { name: 'Set up this phone' }));
    await screen.findByRole('heading', { name: 'This phone could not be set up' });
    expect(screen.getByRole('alert')).toHaveTextContent(`Your organisation does not let you add this app any more. ${reason}`);
    expect(await store.list()).toEqual([]);
  });
});
