import '../../lib/test/setup';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, type FakeApi } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile, BOB_PATH, noProgress, userDetail, verifiedNone } from './test-fixtures';

/** Verify, then issue: the user page leads a helpdesk member through the verification first. */

beforeAll(async () => {
  await import('./AdminArea');
});
afterEach(() => sessionStorage.clear());

const manually = {
  required: true,
  windowSeconds: 900,
  current: {
    method: 'photo_id_video_call' as const,
    ticket: 'INC-77',
    verifiedAt: '2025-05-01T12:00:00.000Z',
    expiresAt: '2025-05-01T12:15:00.000Z',
  },
};

async function openBob(...details: ReturnType<typeof userDetail>[]) {
  const api = (a: FakeApi) =>
    a.on('GET', BOB_PATH, ...details.map((d) => () => json(d))).on('GET', `${BOB_PATH}/lost-device`, () => json(noProgress));
  const rendered = await renderPortal({ path: '/admin/users/bob@example.com', profile: adminProfile('helpdesk'), api });
  await screen.findByRole('heading', { level: 1, name: 'Bob Brown' });
  return rendered;
}

describe('user page: verify identity first', () => {
  it('keeps the issuing actions locked until a verification is recorded by hand, then says so once and unlocks them', async () => {
    const user = userEvent.setup();
    const { api } = await openBob(userDetail({ verification: verifiedNone }), userDetail({ verification: manually }));
    api.on('POST', `${BOB_PATH}/verify-identity/manual`, () => json(manually, 201));

    const region = screen.getByRole('region', { name: 'Verify the caller' });
    expect(screen.getByRole('button', { name: 'Issue bypass codes' })).toBeDisabled();
    expect(screen.getByRole('button', { name: "Remove “Bob's phone”" })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Issue an enrolment pass' })).toBeDisabled();
    // Said once, beside the locked actions, with a link to the verification that keeps the page's address.
    expect(screen.getAllByText(/Verify identity first/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Verify identity first' })).toHaveAttribute(
      'href',
      '/admin/users/bob@example.com#verify-heading',
    );

    // The record by hand waits behind "They have no device left", with no method chosen for the administrator.
    const manual = within(region).getByText('They have no device left').closest('details')!;
    expect(manual).not.toHaveAttribute('open');
    await user.click(within(region).getByText('They have no device left'));
    expect(within(manual).getByLabelText('How you verified them')).toHaveValue('');
    await user.click(within(manual).getByRole('button', { name: 'Record the verification' }));
    expect(await within(manual).findByText('Please choose how you verified them.')).toBeInTheDocument();
    await user.selectOptions(within(manual).getByLabelText('How you verified them'), 'photo_id_video_call');
    await user.click(within(manual).getByRole('button', { name: 'Record the verification' }));
    // The ticket is the call's, typed once above: required for a record by hand.
    expect(await within(region).findByText('Please enter the ticket reference.')).toBeInTheDocument();
    expect(within(region).getByLabelText('Ticket reference')).toHaveFocus();
    expect(api.callsTo('POST', `${BOB_PATH}/verify-identity/manual`)).toHaveLength(0);
    await user.type(within(region).getByLabelText('Ticket reference'), 'INC-77');
    await user.type(within(manual).getByLabelText('What you checked (optional)'), 'Passport{Enter}');

    expect(
      await within(region).findByText('Verified by photo ID on a video call at 12:00 PM, until 12:15 PM (ticket INC-77).'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', `${BOB_PATH}/verify-identity/manual`).map((c) => c.body)).toEqual([
      { method: 'photo_id_video_call', ticket: 'INC-77', note: 'Passport' },
    ]);
    expect(screen.getByRole('heading', { level: 2, name: 'Devices and codes' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Issue bypass codes' })).toBeEnabled();
    expect(screen.getByRole('button', { name: "Remove “Bob's phone”" })).toBeEnabled();
    expect(screen.queryByRole('link', { name: 'Verify identity first' })).toBeNull();
  }, 20_000);

  it('opens the record by hand at once for a caller with no device at all', async () => {
    await openBob(userDetail({ verification: verifiedNone }, { devices: [] }));
    const region = screen.getByRole('region', { name: 'Verify the caller' });
    expect(within(region).getByText('They have no device left').closest('details')).toHaveAttribute('open');
  });

  it('tells a Solution Administrator they may act without one, and that it is recorded', async () => {
    await renderPortal({
      path: '/admin/users/bob@example.com',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', BOB_PATH, () => json(userDetail({ verification: { ...verifiedNone, required: false } })))
          .on('GET', `${BOB_PATH}/lost-device`, () => json(noProgress)),
    });
    await screen.findByRole('heading', { level: 1, name: 'Bob Brown' });
    expect(screen.getByRole('region', { name: 'Verify the caller' })).toHaveTextContent('the audit log will say that you did');
    expect(screen.getByRole('button', { name: 'Issue bypass codes' })).toBeEnabled();
  });
});
