import '../../lib/test/setup';
import { beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, type FakeApi } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile, BOB_PATH, noProgress, userDetail, verifiedNone } from './test-fixtures';

/** Verify, then issue (issue 14): the user page leads a helpdesk member through the verification first. */

beforeAll(async () => {
  await import('./AdminArea');
});

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
  it('keeps the issuing actions locked until a verification is recorded by hand, then shows it and unlocks them', async () => {
    const user = userEvent.setup();
    const { api } = await openBob(userDetail({ verification: verifiedNone }), userDetail({ verification: manually }));
    api.on('POST', `${BOB_PATH}/verify-identity/manual`, () => json(manually, 201));

    const region = screen.getByRole('region', { name: 'Verify the caller' });
    expect(region).toHaveTextContent('Verify identity first');
    expect(screen.getByRole('button', { name: 'Issue bypass codes' })).toBeDisabled();
    expect(screen.getByRole('button', { name: "Remove “Bob's phone”" })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Issue an enrolment pass' })).toBeDisabled();
    expect(screen.getAllByRole('link', { name: 'Verify identity first.' })[0]).toHaveAttribute('href', '#verify-heading');

    const manual = within(region).getByRole('region', { name: 'They have no device left: record how you verified them' });
    await user.selectOptions(within(manual).getByLabelText('How you verified them'), 'photo_id_video_call');
    await user.click(within(manual).getByRole('button', { name: 'Record the verification' }));
    expect(await within(manual).findByText('Please enter the ticket reference.')).toBeInTheDocument();
    expect(api.callsTo('POST', `${BOB_PATH}/verify-identity/manual`)).toHaveLength(0);
    await user.type(within(manual).getByLabelText('Ticket reference'), 'INC-77');
    await user.type(within(manual).getByLabelText('What you checked (optional)'), 'Passport{Enter}');

    expect(await within(region).findByText('Identity verified: you may issue codes and change their devices')).toBeInTheDocument();
    expect(region).toHaveTextContent(
      'You verified them by photo ID on a video call at 12:00 PM (ticket INC-77). This lets you act until 12:15 PM.',
    );
    expect(api.callsTo('POST', `${BOB_PATH}/verify-identity/manual`).map((c) => c.body)).toEqual([
      { method: 'photo_id_video_call', ticket: 'INC-77', note: 'Passport' },
    ]);
    expect(screen.getByRole('button', { name: 'Issue bypass codes' })).toBeEnabled();
    expect(screen.getByRole('button', { name: "Remove “Bob's phone”" })).toBeEnabled();
    expect(screen.queryByRole('link', { name: 'Verify identity first.' })).toBeNull();
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
