import '../../lib/test/setup';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminLostDeviceProgress } from '@mfa-portal/shared';
import { findDialog } from '../../lib/test/dialogs';
import { json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { token } from '../../test/fixtures';
import { callStorageKey } from './components/justification-memory';
import { adminProfile, BOB_PATH, event, noProgress, userDetail, verifiedAtNoon, verifiedNone } from './test-fixtures';

/**
 * A helpdesk call on a user's page, top to bottom: who they are, verify them, act beside their
 * devices, the account's own actions last; the call's reason and ticket typed once.
 */

beforeAll(async () => {
  await import('./AdminArea');
});
afterEach(() => sessionStorage.clear());

const CALL_KEY = callStorageKey('helpdesk@example.com', 'bob@example.com');

async function openBob(detail = userDetail({ verification: verifiedNone }), progress: () => AdminLostDeviceProgress = () => noProgress) {
  const rendered = await renderPortal({
    path: '/admin/users/bob@example.com',
    profile: adminProfile('helpdesk'),
    api: (a) => a.on('GET', BOB_PATH, () => json(detail)).on('GET', `${BOB_PATH}/lost-device`, () => json(progress())),
  });
  await screen.findByRole('heading', { level: 1, name: 'Bob Brown' });
  return rendered;
}

describe('the helpdesk call on a user page', () => {
  it('follows the call: who, verify, the actions, activity, and the account last, its disabling apart', async () => {
    await openBob();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Status',
      'Verify the caller',
      'Devices and codes',
      'Recent activity',
      'Account',
    ]);
    const buttons = within(screen.getByRole('main')).getAllByRole('button');
    expect(buttons[0]).not.toHaveTextContent('Disable the account');
    const account = screen.getByRole('region', { name: 'Account' });
    expect(within(account).getByRole('button', { name: 'Disable the account' })).toBeEnabled();
    expect(buttons.at(-1)).toHaveTextContent('Disable the account');
  });

  it('goes to the verification from the locked actions without leaving the page', async () => {
    const user = userEvent.setup();
    await openBob();
    const before = screen.getByTestId('location').textContent;
    const link = screen.getByRole('link', { name: 'Verify identity first' });
    expect(link.getAttribute('href')).toBe('/admin/users/bob@example.com#verify-heading');
    await user.click(link);
    expect(screen.getByRole('heading', { level: 2, name: 'Verify the caller' })).toHaveFocus();
    expect(screen.getByTestId('location').textContent).toBe(before);
  });

  it('takes the reason and ticket once, with the verification, into every action and the lost-device wizard', async () => {
    const user = userEvent.setup();
    let progress = noProgress;
    const { api } = await openBob(undefined, () => progress);
    api.on('POST', `${BOB_PATH}/verify-identity`, () => {
      api.on('GET', BOB_PATH, () => json(userDetail({ verification: verifiedAtNoon('passcode', 'INC-42') })));
      progress = { identityCheck: { checkedAt: '2025-05-01T12:00:00.000Z', deviceId: token.id }, case: null };
      return json({ verified: true, reason: null, deviceId: token.id, checkedAt: '2025-05-01T12:00:00.000Z' });
    });
    const region = screen.getByRole('region', { name: 'Verify the caller' });
    await user.type(within(region).getByLabelText('Ticket reference'), 'INC-42');
    await user.type(within(region).getByLabelText('Reason'), 'Lost his phone on the train');
    await user.selectOptions(within(region).getByLabelText('Device they read the code from'), token.id);
    await user.type(within(region).getByLabelText('Code they read out'), '123456{Enter}');
    await within(region).findByText(/^Verified by code/);

    await user.click(screen.getByRole('button', { name: 'Issue bypass codes' }));
    const dialog = await findDialog('Issue bypass codes for bob@example.com');
    expect(within(dialog).getByLabelText('Reason')).toHaveValue('Lost his phone on the train');
    expect(within(dialog).getByLabelText('Ticket reference')).toHaveValue('INC-42');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('link', { name: 'Lost device wizard' }));
    expect(await screen.findByRole('heading', { name: 'Step 2: Remove the lost device' })).toBeInTheDocument();
    expect(screen.getByLabelText('Reason')).toHaveValue('Lost his phone on the train');
    expect(screen.getByLabelText('Ticket reference')).toHaveValue('INC-42');
  }, 20_000);

  it('forgets the call once its verification window has ended', async () => {
    sessionStorage.setItem(CALL_KEY, JSON.stringify({ reason: 'Old call', ticket: 'INC-1', until: '2020-01-01T00:00:00.000Z' }));
    await openBob();
    const region = screen.getByRole('region', { name: 'Verify the caller' });
    expect(within(region).getByLabelText('Reason')).toHaveValue('');
    expect(within(region).getByLabelText('Ticket reference')).toHaveValue('');
  });

  it('folds the recent activity until asked for, keeping the focus on its button', async () => {
    const user = userEvent.setup();
    const events = Array.from({ length: 7 }, (_, i) => event({ id: String(200 - i), details: { ticket: `INC-${i}` } }));
    await openBob(userDetail({ verification: verifiedNone, activity: events }));
    expect(screen.queryByRole('table', { name: /latest events about bob@example.com/ })).not.toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Show the 7 latest events' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    const table = screen.getByRole('table', { name: 'The 20 latest events about bob@example.com, newest first' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 7);
    const hide = screen.getByRole('button', { name: 'Hide the events' });
    expect(hide).toHaveAttribute('aria-expanded', 'true');
    expect(hide).toHaveFocus();
  });
});
