import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, json, openFactorPolicy } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { phone, profile, token } from '../../test/fixtures';

/**
 * The organisation's factor policy on the person's own screens: Add a device offers only what they may
 * add and says why the rest is missing; a device they may no longer use is shown as such, with what to
 * do, and kept; "Confirm it is you" offers only what they may use.
 */

const contractor = () =>
  openFactorPolicy({
    enrol: ['security_key'],
    use: ['security_key', 'authenticator_app'],
    maxPerKind: { security_key: 2 },
    unavailable: [
      { kind: 'passkey', reason: 'not_allowed' },
      { kind: 'portal_authenticator', reason: 'not_allowed' },
      { kind: 'phone', reason: 'not_allowed' },
      { kind: 'authenticator_app', reason: 'not_allowed' },
      { kind: 'hardware_token', reason: 'not_allowed' },
      { kind: 'bypass_codes', reason: 'not_allowed' },
    ],
    source: { kind: 'groups', groups: [{ id: 'g1', name: 'Contractors' }] },
  });

const cardTitles = () =>
  screen
    .getAllByRole('heading', { level: 2 })
    .map((h) => h.textContent?.replace('Recommended', '').trim())
    .filter((title) => title !== 'Why some kinds are not offered');

describe('add a device under a factor policy', () => {
  it('offers a contractor only security keys, and says why each other kind is not offered', async () => {
    await renderPortal({ path: '/devices/add', api: (a) => a.on('GET', '/api/me/factor-policy', () => json(contractor())) });
    expect(await screen.findByRole('heading', { name: 'Security key Recommended' })).toBeInTheDocument();
    expect(cardTitles()).toEqual(['Security key']);
    expect(screen.getByRole('link', { name: 'Add a security key' })).toHaveAttribute('href', '/devices/add/passkey');
    expect(screen.queryByRole('link', { name: 'Add an authenticator app' })).not.toBeInTheDocument();
    const why = screen.getByRole('region', { name: 'Why some kinds are not offered' });
    expect(why).toHaveTextContent('These are not offered to you under the policy for Contractors:');
    expect(
      within(why)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'A passkey on this computer or phone: not allowed',
      'Portal Authenticator on your phone: not allowed',
      'An authenticator app: not allowed',
      'A hardware token: not allowed',
    ]);
  });

  it('says when a kind is not offered because they hold as many as allowed', async () => {
    await renderPortal({
      path: '/devices/add',
      api: (a) =>
        a.on('GET', '/api/me/factor-policy', () =>
          json(
            openFactorPolicy({
              enrol: ['passkey', 'security_key', 'portal_authenticator', 'authenticator_app', 'bypass_codes'],
              maxPerKind: { hardware_token: 1 },
              unavailable: [{ kind: 'hardware_token', reason: 'limit_reached' }],
            }),
          ),
        ),
    });
    const why = await screen.findByRole('region', { name: 'Why some kinds are not offered' });
    expect(why).toHaveTextContent('under your organisation’s policy');
    expect(why).toHaveTextContent('A hardware token: you have as many as allowed (1)');
    expect(screen.queryByRole('link', { name: 'Add a hardware token' })).not.toBeInTheDocument();
  });

  it('offers nothing until the policy is known, and everything the provider can add when nothing is restricted', async () => {
    await renderPortal({ path: '/devices/add' });
    expect(await screen.findByRole('link', { name: 'Add a hardware token' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Why some kinds are not offered' })).not.toBeInTheDocument();
  });

  it('tells a contractor on the passkey page that only security keys are allowed', async () => {
    await renderPortal({ path: '/devices/add/passkey', api: (a) => a.on('GET', '/api/me/factor-policy', () => json(contractor())) });
    expect(await screen.findByRole('heading', { level: 2, name: 'Security key' })).toBeInTheDocument();
    expect(screen.getByText(/Your organisation allows only security keys here/)).toBeInTheDocument();
  });
});

describe('a device the policy no longer allows', () => {
  it('is shown as such with what to do, and kept with its actions', async () => {
    await renderPortal({
      api: (a) => a.on('GET', '/api/me/factor-policy', () => json({ ...contractor(), disallowedDevices: [token.id], holdsUsable: true })),
    });
    const devices = await screen.findByRole('region', { name: 'Your devices' });
    const item = await within(devices).findByRole('article', { name: /Key ring token.*No longer allowed/ });
    expect(item).toHaveTextContent(
      'Your organisation no longer allows this kind of device for sign-in: add a security key, then remove it.',
    );
    expect(within(item).getByRole('button', { name: 'Remove “Key ring token”' })).toBeInTheDocument();
    expect(within(devices).getByRole('article', { name: "Bob's phone" })).not.toHaveTextContent('No longer allowed');
  });

  it('says to ask the service desk when none of their devices may be used', async () => {
    await renderPortal({
      api: (a) =>
        a.on('GET', '/api/me/factor-policy', () => json({ ...contractor(), disallowedDevices: [token.id, phone.id], holdsUsable: false })),
    });
    const devices = await screen.findByRole('region', { name: 'Your devices' });
    const item = await within(devices).findByRole('article', { name: /Bob's phone.*No longer allowed/ });
    expect(item).toHaveTextContent('Until then you have no device you may use to confirm it is you');
  });
});

describe('"Confirm it is you" under a factor policy', () => {
  it('offers only what the person may use: no bypass code, no device the policy no longer allows', async () => {
    const user = userEvent.setup();
    await renderPortal({
      profile: profile({ provider: 'duo' }),
      api: (a) =>
        a
          .on('GET', '/api/me/factor-policy', () =>
            json(
              openFactorPolicy({
                use: ['passkey', 'security_key', 'authenticator_app', 'hardware_token'],
                disallowedDevices: [phone.id],
              }),
            ),
          )
          .on('DELETE', `/api/me/devices/${token.id}`, () => apiError(403, 'auth.step_up_required')),
    });
    await user.click(await screen.findByRole('button', { name: 'Remove “Key ring token”' }));
    await user.click(within(await findDialog('Remove “Key ring token”?')).getByRole('button', { name: 'Remove' }));
    const dialog = await findDialog('Confirm it is you');
    expect(await within(dialog).findByRole('radio', { name: 'A code from my authenticator app or hardware token' })).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).queryByRole('radio', { name: 'A bypass code' })).not.toBeInTheDocument());
    // Bob's phone takes pushes on Duo, but the policy no longer lets him use it.
    expect(within(dialog).queryByRole('radio', { name: /A push to my phone/ })).not.toBeInTheDocument();
  });
});
