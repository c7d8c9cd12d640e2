import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActivityEvent } from '@mfa-portal/shared';
import { json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';

const signIn: ActivityEvent = {
  id: '42',
  occurredAt: '2025-05-01T14:05:00.000Z',
  actorUpn: 'bob@example.com',
  actorRoles: [],
  targetUpn: 'bob@example.com',
  action: 'idp.login.second_factor_ok',
  outcome: 'success',
  reason: null,
  requestId: 'req-1',
  details: { method: 'passcode' },
  client: { address: '10.20.30.40', browser: 'Firefox 128', os: 'Windows 10', location: 'Head office', method: 'passcode' },
};

describe('activity: where an event came from, and "This wasn\'t me"', () => {
  it('shows browser, system, address, location and method of an event', { timeout: 30_000 }, async () => {
    await renderPortal({
      path: '/activity',
      api: (a) => a.on('GET', '/api/me/activity', () => json({ events: [signIn], nextCursor: null })),
    });
    expect(await screen.findByText('Firefox 128 on Windows 10 · 10.20.30.40 (Head office) · method: passcode')).toBeInTheDocument();
  });

  it('reports an event with the chosen actions after a confirmation, and says what was done', { timeout: 30_000 }, async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/activity',
      api: (a) =>
        a
          .on('GET', '/api/me/activity', () => json({ events: [signIn], nextCursor: null }))
          .on('POST', '/api/me/activity/42/report', () =>
            json({ reported: true, securityContactNotified: true, signedOutEverywhere: true, bypassCodesRevoked: 2, locked: true }),
          ),
    });
    await user.click(await screen.findByRole('button', { name: /This wasn't me: Signed in with a second factor/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Report something you did not do' });
    expect(within(dialog).getByRole('checkbox', { name: 'Sign me out everywhere' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Revoke all my bypass codes' })).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: /Lock my account/ }));
    expect(api.callsTo('POST', '/api/me/activity/42/report')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Report it' }));
    expect(await within(dialog).findByText('The security team has been told.')).toBeInTheDocument();
    expect(within(dialog).getByText('2 bypass codes were revoked.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/me/activity/42/report')[0]?.body).toEqual({
      signOutEverywhere: true,
      revokeBypassCodes: true,
      lockAccount: true,
    });
  });
});
