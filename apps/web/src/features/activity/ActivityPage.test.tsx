import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActivityEntry } from '@mfa-portal/shared';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { AT, entry, step } from './test-fixtures';

const signIn = entry({
  id: '12',
  story: 'sign_in',
  method: 'hardware_token',
  steps: [step({ eventId: '12', step: 'signed_in', method: 'hardware_token' })],
});
const wrongCode = entry({
  id: '10',
  story: 'sign_in_wrong_code',
  outcome: 'failure',
  reason: 'mfa.code_invalid',
  actor: 'someone',
  steps: [
    step({ eventId: '8', step: 'password_ok' }),
    step({ eventId: '10', step: 'code_wrong', outcome: 'failure', reason: 'mfa.code_invalid' }),
  ],
});
const removal = entry({
  id: '7',
  story: 'device_removed',
  deviceName: 'Old phone',
  steps: [
    step({ eventId: '5', step: 'step_up_asked', outcome: 'unfinished' }),
    step({ eventId: '6', step: 'step_up', method: 'authenticator_app' }),
    step({ eventId: '7', step: 'device_removed', deviceName: 'Old phone' }),
  ],
});
const abandoned = entry({
  id: '4',
  story: 'bypass_created',
  outcome: 'unfinished',
  steps: [step({ eventId: '4', step: 'step_up_asked', outcome: 'unfinished' })],
});
const byTheDesk = entry({
  id: '3',
  story: 'helpdesk_bypass_created',
  actor: 'service_desk',
  actorUpn: 'helpdesk@example.com',
  count: 1,
  steps: [
    step({ eventId: '2', step: 'identity_checked', method: 'code' }),
    step({ eventId: '3', step: 'helpdesk_bypass_created', count: 1 }),
  ],
});
const older = [
  entry({
    id: '1',
    story: 'identity_checked',
    outcome: 'failure',
    reason: 'mfa.code_invalid',
    actor: 'service_desk',
    actorUpn: 'helpdesk@example.com',
  }),
  entry({ id: '0', story: 'other', client: { address: null, browser: null, os: null, location: null } }),
];

const rows = () =>
  screen.getAllByRole('listitem').filter((li) => li.parentElement?.getAttribute('aria-label') === 'Your activity, newest first');

describe('activity', () => {
  it('tells each sign-in, change and service-desk action in one sentence, with when, where and which browser', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/activity',
      api: (a) =>
        a.on('GET', '/api/me/activity', (call) =>
          call.query.get('cursor') === '3'
            ? json({ entries: older, nextCursor: null })
            : json({ entries: [signIn, wrongCode, removal, abandoned, byTheDesk], nextCursor: '3' }),
        ),
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Activity' })).toBeInTheDocument();
    await screen.findByText('You signed in with your hardware token');
    expect(rows().map((li) => li.querySelector('.timeline__what')?.textContent)).toEqual([
      'You signed in with your hardware token',
      'Someone tried to sign in as you with a wrong code Failed',
      'You removed the device “Old phone”',
      'You started to create bypass codes and stopped before they were made Not finished',
      'The service desk (helpdesk@example.com) created 1 bypass code for you',
    ]);
    const [first, second] = rows();
    expect(first).toHaveTextContent('May 1, 2025, 2:05 PM · Head office (10.20.30.40) · Firefox 128 on Windows 10');
    expect(first!.querySelector('time')).toHaveAttribute('datetime', AT);
    expect(second).toHaveTextContent('Reason: That code is not correct. Please check it and try again.');
    expect(second).not.toHaveTextContent(/by you/i);
    expect(api.callsTo('GET', '/api/me/activity')[0]?.query.get('limit')).toBe('20');

    await user.click(screen.getByRole('button', { name: 'Show older activity' }));
    expect(
      await screen.findByText('The service desk (helpdesk@example.com) tried to check your identity, and it did not pass'),
    ).toBeInTheDocument();
    expect(screen.getByText('Something changed on your account')).toBeInTheDocument();
    expect(screen.getByText('That is everything.')).toBeInTheDocument();
    // Never an internal name or a protocol word.
    expect(document.body).not.toHaveTextContent(/hotp|totp|method:|mfa\.|idp\.|\.verify/);
  });

  it('shows the steps of an entry behind "Details", and one "Doesn\'t look like you?" per entry', async () => {
    const user = userEvent.setup();
    const reported = entry({
      id: '20',
      story: 'reported',
      reportable: false,
      steps: [step({ eventId: '20', step: 'reported' }), step({ eventId: '21', step: 'signed_out_everywhere' })],
    });
    await renderPortal({
      path: '/activity',
      api: (a) => a.on('GET', '/api/me/activity', () => json({ entries: [reported, wrongCode, removal], nextCursor: null })),
    });
    await screen.findByText('You removed the device “Old phone”');
    const [reportRow, attempt, removed] = rows();
    expect(within(reportRow!).queryByRole('button', { name: /Doesn't look like you\?/ })).not.toBeInTheDocument();
    expect(within(attempt!).getAllByRole('button', { name: /Doesn't look like you\?/ })).toHaveLength(1);
    expect(within(removed!).getAllByRole('button', { name: /Doesn't look like you\?/ })).toHaveLength(1);

    const details = within(removed!).getByRole('button', { name: 'Details' });
    expect(details).toHaveAttribute('aria-expanded', 'false');
    expect(within(removed!).queryByRole('list')).not.toBeInTheDocument();
    await user.click(details);
    expect(details).toHaveAttribute('aria-expanded', 'true');
    const steps = within(within(removed!).getByRole('list', { name: 'What happened, step by step' })).getAllByRole('listitem');
    expect(steps.map((li) => li.textContent)).toEqual([
      '2:05 PM Asked to confirm it was you first',
      '2:05 PM You confirmed it was you with your authenticator app',
      '2:05 PM You removed the device “Old phone”',
    ]);
    // A confirmation asked for is not a failure.
    expect(removed).not.toHaveTextContent('Failed');

    await user.click(within(attempt!).getByRole('button', { name: 'Details' }));
    expect(within(attempt!).getByRole('list', { name: 'What happened, step by step' })).toHaveTextContent(
      '2:05 PM The right password was entered2:05 PM A wrong code was entered (That code is not correct. Please check it and try again.)',
    );
    await user.click(within(attempt!).getByRole('button', { name: 'Details' }));
    expect(within(attempt!).queryByRole('list')).not.toBeInTheDocument();
  });

  it('says when nothing is recorded yet', async () => {
    await renderPortal({ path: '/activity', api: (a) => a.on('GET', '/api/me/activity', () => json({ entries: [], nextCursor: null })) });
    expect(await screen.findByText('Nothing recorded yet')).toBeInTheDocument();
  });

  it('shows the reason when the activity cannot be loaded', async () => {
    await renderPortal({ path: '/activity', api: (a) => a.on('GET', '/api/me/activity', () => apiError(403, 'auth.forbidden')) });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your activity could not be loaded');
    expect(alert).toHaveTextContent('You do not have permission to do this.');
  });

  it('offers to sign in again when the session has expired', async () => {
    const { msal } = await renderPortal({ path: '/help' });
    msal.silent.mockRejectedValue(
      new (await import('@azure/msal-browser')).InteractionRequiredAuthError('login_required', 'Sign-in needed'),
    );
    await userEvent.setup().click(screen.getByRole('link', { name: 'Activity' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your sign-in has expired. Please sign in again.');
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Sign in again' }));
    expect(msal.redirect).toHaveBeenCalledWith(expect.objectContaining({ scopes: ['api://mfa-portal/access_as_user'] }));
  });
});

describe('activity: phones, pushes and names not known', () => {
  it('says in plain words what happened with phones and pushes, with the reason a push failed', async () => {
    const entries: ActivityEntry[] = [
      entry({
        id: '6',
        story: 'sign_in_push_not_approved',
        outcome: 'failure',
        reason: 'push.denied',
        actor: 'someone',
        steps: [
          step({ eventId: '4', step: 'push_sent' }),
          step({ eventId: '5', step: 'push_denied_on_phone', deviceName: 'Work phone' }),
          step({ eventId: '6', step: 'push_not_approved', outcome: 'failure', reason: 'push.denied' }),
        ],
      }),
      entry({ id: '3', story: 'device_checked', outcome: 'failure', reason: 'push.timeout' }),
      entry({ id: '2', story: 'phone_added', deviceName: 'Work phone' }),
      entry({ id: '1', story: 'device_removed' }),
    ];
    await renderPortal({ path: '/activity', api: (a) => a.on('GET', '/api/me/activity', () => json({ entries, nextCursor: null })) });
    expect(await screen.findByText(/Someone tried to sign in as you, and the push to your phone was not approved/)).toBeInTheDocument();
    expect(screen.getByText('Reason: The push was denied on the phone.')).toBeInTheDocument();
    expect(screen.getByText('Reason: The push was not answered in time.')).toBeInTheDocument();
    expect(screen.getByText('You added the phone “Work phone”')).toBeInTheDocument();
    // A device whose name is not known is not named “”.
    expect(screen.getByText('You removed a device')).toBeInTheDocument();
  });
});
