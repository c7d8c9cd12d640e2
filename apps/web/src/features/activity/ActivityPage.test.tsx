import '../../lib/test/setup';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActivityEvent } from '@mfa-portal/shared';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { settings } from '../../test/fixtures';

const event = (over: Partial<ActivityEvent> & Pick<ActivityEvent, 'id' | 'action'>): ActivityEvent => ({
  occurredAt: '2025-05-01T14:05:00.000Z',
  actorUpn: 'bob@example.com',
  actorRoles: [],
  targetUpn: 'bob@example.com',
  outcome: 'success',
  reason: null,
  requestId: 'req-1',
  details: null,
  ...over,
});

const page1: ActivityEvent[] = [
  event({ id: '9', action: 'device.delete', details: { deviceId: 'd1', deviceName: 'Old phone', kind: 'phone' } }),
  event({ id: '8', action: 'mfa.verify', details: { purpose: 'step_up', method: 'passcode' } }),
  event({
    id: '7',
    action: 'device.delete',
    actorUpn: 'helpdesk@example.com',
    actorRoles: ['Helpdesk Administrator'],
    details: { deviceId: 'd2', deviceName: 'Lost token' },
  }),
  event({ id: '6', action: 'bypass.create', details: { count: 3, validitySeconds: 86400 } }),
  event({ id: '5', action: 'mfa.verify', outcome: 'failure', reason: 'mfa.code_invalid', details: { purpose: 'device_test' } }),
];
const page2: ActivityEvent[] = [
  event({ id: '4', action: 'device.claim_token', details: { serial: 'D100-0002', deviceName: 'Desk token' } }),
  event({
    id: '3',
    action: 'admin.user.create_bypass_codes',
    actorUpn: 'helpdesk@example.com',
    actorRoles: ['Helpdesk Administrator'],
    details: { count: 1 },
  }),
  event({ id: '2', action: 'idp.login.second_factor_ok', actorUpn: null, actorRoles: [] }),
  event({ id: '1', action: 'something.new' }),
];

describe('activity', () => {
  it('shows the events in plain words, newest first, including what the service desk did, and loads older ones', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/activity',
      api: (a) =>
        a.on('GET', '/api/me/activity', (call) =>
          call.query.get('cursor') === '5' ? json({ events: page2, nextCursor: null }) : json({ events: page1, nextCursor: '5' }),
        ),
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Activity' })).toBeInTheDocument();
    const items = await screen.findAllByRole('listitem');
    expect(items.map((li) => within(li).getByText(/./, { selector: '.timeline__what' }).textContent)).toEqual([
      'Removed the device “Old phone”',
      'Confirmed it was you before a change',
      'Removed the device “Lost token”',
      'Created 3 bypass codes',
      'A code from a device check was refused',
    ]);
    expect(items[0]).toHaveTextContent('By you');
    expect(items[0]).toHaveTextContent('May 1, 2025, 2:05 PM');
    expect(items[0]!.querySelector('time')).toHaveAttribute('datetime', '2025-05-01T14:05:00.000Z');
    expect(items[2]).toHaveTextContent('By helpdesk@example.com (service desk)');
    expect(items[2]).toHaveTextContent('Not you');
    expect(items[4]).toHaveTextContent('Failed');
    expect(items[4]).toHaveTextContent('Reason: That code is not correct. Please check it and try again.');
    expect(api.callsTo('GET', '/api/me/activity')[0]?.query.get('limit')).toBe('20');

    await user.click(screen.getByRole('button', { name: 'Show older activity' }));
    expect(await screen.findByText('Added the hardware token D100-0002')).toBeInTheDocument();
    expect(screen.getByText('Created 1 bypass code for you')).toBeInTheDocument();
    expect(screen.getByText('Signed in with a second factor').closest('li')).toHaveTextContent('By the portal');
    expect(screen.getByText('Account event “something.new”')).toBeInTheDocument();
    expect(screen.getByText('That is everything.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show older activity' })).not.toBeInTheDocument();
  });

  it('names the holders of the configured restricted roles as the service desk, not fixed role names', async () => {
    const events: ActivityEvent[] = [
      event({ id: '2', action: 'device.delete', actorUpn: 'desk@example.com', actorRoles: ['MFA.Helpdesk'], details: { deviceName: 'A' } }),
      event({
        id: '1',
        action: 'device.delete',
        actorUpn: 'someone@example.com',
        actorRoles: ['Helpdesk Administrator'],
        details: { deviceName: 'B' },
      }),
    ];
    await renderPortal({
      path: '/activity',
      settings: { ...settings, apiInfo: { ...settings.apiInfo, restrictedRoles: ['MFA.Helpdesk'] } },
      api: (a) => a.on('GET', '/api/me/activity', () => json({ events, nextCursor: null })),
    });
    const items = await screen.findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('By desk@example.com (service desk)');
    expect(items[1]).toHaveTextContent('By someone@example.com');
    expect(items[1]).not.toHaveTextContent('service desk');
  });

  it('says when nothing is recorded yet', async () => {
    await renderPortal({ path: '/activity', api: (a) => a.on('GET', '/api/me/activity', () => json({ events: [], nextCursor: null })) });
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

describe('activity: phones and pushes', () => {
  it('says in plain words what happened with phones and pushes, with the reason a push failed', async () => {
    const events: ActivityEvent[] = [
      event({ id: '6', action: 'step_up.push', details: { deviceId: 'd1', txid: 't2', state: 'approved' } }),
      event({
        id: '5',
        action: 'device.test_push',
        outcome: 'failure',
        reason: 'push.denied',
        details: { deviceId: 'd1', state: 'denied' },
      }),
      event({
        id: '4',
        action: 'device.test_push',
        outcome: 'failure',
        reason: 'push.timeout',
        details: { deviceId: 'd1', state: 'timeout' },
      }),
      event({ id: '3', action: 'device.activation', details: { deviceId: 'd1', channel: 'sms' } }),
      event({ id: '2', action: 'device.add_phone', details: { deviceId: 'd1', deviceName: 'Work phone', kind: 'phone' } }),
      event({
        id: '1',
        action: 'admin.user.verify_identity_push',
        actorUpn: 'helpdesk@example.com',
        actorRoles: ['Helpdesk Administrator'],
        details: { deviceId: 'd1', method: 'push' },
      }),
    ];
    await renderPortal({ path: '/activity', api: (a) => a.on('GET', '/api/me/activity', () => json({ events, nextCursor: null })) });
    expect(await screen.findByText('Confirmed it was you with a push')).toBeInTheDocument();
    expect(screen.getAllByText('A test push was not approved')).toHaveLength(2);
    expect(screen.getByText('Reason: The push was denied on the phone.')).toBeInTheDocument();
    expect(screen.getByText('Reason: The push was not answered in time.')).toBeInTheDocument();
    expect(screen.getByText('Got an activation link for a phone')).toBeInTheDocument();
    expect(screen.getByText('Added the phone “Work phone”')).toBeInTheDocument();
    expect(screen.getByText('Sent you a push to check it was you')).toBeInTheDocument();
  });
});
