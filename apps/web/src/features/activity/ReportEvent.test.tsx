import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { entry } from './test-fixtures';

const signIn = entry({ id: '42', story: 'sign_in', method: 'authenticator_app' });

describe('activity: "Doesn\'t look like you?"', () => {
  it('reports an entry with the chosen actions after a confirmation, and says what was done', { timeout: 30_000 }, async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/activity',
      api: (a) =>
        a
          .on('GET', '/api/me/activity', () => json({ entries: [signIn], nextCursor: null }))
          .on('POST', '/api/me/activity/42/report', () =>
            json({ reported: true, securityContactNotified: true, signedOutEverywhere: true, bypassCodesRevoked: 2, locked: true }),
          ),
    });
    await user.click(await screen.findByRole('button', { name: "Doesn't look like you? You signed in with your authenticator app" }));
    const dialog = await screen.findByRole('dialog', { name: 'Report something you did not do' });
    expect(dialog).toHaveTextContent('You are reporting: You signed in with your authenticator app.');
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
