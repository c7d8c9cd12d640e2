import '../../lib/test/setup';
import { beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile, BOB_PATH, event, noProgress, searchPage, userDetail } from './test-fixtures';

beforeAll(async () => {
  // The area is a chunk of its own: load it before the first test renders it.
  await import('./AdminArea');
});

const nav = () => screen.getByRole('navigation', { name: 'Main' });

describe('administration: who sees it', () => {
  it('is not in the navigation of staff', async () => {
    await renderPortal({ path: '/' });
    expect(
      within(nav())
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).not.toContain('Administration');
  });

  it('says to staff who open an address of it that it is not available for their role, and asks the API nothing', async () => {
    const { api } = await renderPortal({ path: '/admin/users/bob@example.com' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Not available for your role' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('This page is for the service desk');
    expect(screen.getByRole('link', { name: 'Back to the overview' })).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path.startsWith('/api/admin'))).toEqual([]);
  });

  it('is in the navigation of a Helpdesk Administrator, with users only (not tokens or the audit log)', async () => {
    const user = userEvent.setup();
    await renderPortal({ path: '/', profile: adminProfile('helpdesk') });
    await user.click(within(nav()).getByRole('link', { name: 'Administration' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Find a user' })).toBeInTheDocument();
    const adminNav = screen.getByRole('navigation', { name: 'Administration' });
    expect(within(adminNav).getByRole('link', { name: 'Users' })).toBeInTheDocument();
    expect(within(adminNav).queryByRole('link', { name: 'Hardware tokens' })).not.toBeInTheDocument();
    expect(within(adminNav).queryByRole('link', { name: 'Audit log' })).not.toBeInTheDocument();
  });

  it('shows a Solution Administrator the token inventory, the audit log and the passkey settings too', async () => {
    await renderPortal({ path: '/admin', profile: adminProfile('solution_admin') });
    const adminNav = await screen.findByRole('navigation', { name: 'Administration' });
    expect(
      within(adminNav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Users', 'Hardware tokens', 'Audit log', 'Provisioning', 'Passkeys', 'Factor policy', 'Reports', 'Units', 'Campaigns']);
  });
});

describe('user search', () => {
  it('finds users by what is typed, marks protected accounts and the own one, and pages with "Next page"', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/users',
      profile: adminProfile('helpdesk'),
      api: (a) =>
        a.on(
          'GET',
          '/api/admin/users',
          () =>
            json(
              searchPage(
                [
                  {
                    upn: 'admin@example.com',
                    email: 'admin@example.com',
                    realName: 'Ada Admin',
                    protection: { protected: true, reason: 'restricted_role' },
                  },
                  { upn: 'bob@example.com', status: 'locked_out' },
                  {
                    upn: 'helpdesk@example.com',
                    email: 'helpdesk@example.com',
                    realName: 'Hana Helpdesk',
                    protection: { protected: true, reason: 'restricted_role' },
                  },
                ],
                'helpdesk@example.com',
              ),
            ),
          () => json(searchPage([{ upn: 'nomfa@example.com', realName: 'Nora Nomfa', status: 'not_provisioned' }])),
        ),
    });
    await user.type(screen.getByLabelText('Name, sign-in name or e-mail'), 'example{Enter}');
    const table = await screen.findByRole('table', { name: 'Search results' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'Ada Adminadmin@example.comadmin@example.comActiveProtected account',
      'Bob Brownbob@example.combob@example.comLocked out–',
      'Hana Helpdeskhelpdesk@example.comhelpdesk@example.comActiveYour own account',
    ]);
    expect(within(rows[1]!).getByRole('link', { name: 'Bob Brown' })).toHaveAttribute('href', '/admin/users/bob%40example.com/');
    expect(screen.getByText('Page 1: 3 users.')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/users?q=example');

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('link', { name: 'Nora Nomfa' })).toBeInTheDocument();
    expect(screen.getByText('Page 2: 1 user.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next page' })).not.toBeInTheDocument();
    const calls = api.callsTo('GET', '/api/admin/users');
    expect(calls.map((c) => [c.query.get('q'), c.query.get('cursor'), c.query.get('limit')])).toEqual([
      ['example', null, '20'],
      ['example', 'helpdesk@example.com', '20'],
    ]);
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByRole('link', { name: 'Ada Admin' })).toBeInTheDocument();
  });

  it('says when nothing matches, and shows a failure in words', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/users?q=zzz',
      profile: adminProfile('helpdesk'),
      api: (a) => a.on('GET', '/api/admin/users', () => json(searchPage([]))),
    });
    expect(await screen.findByText('No user matches “zzz”')).toBeInTheDocument();
    api.on('GET', '/api/admin/users', () => apiError(400, 'request.invalid', { field: 'q' }));
    const box = screen.getByLabelText('Name, sign-in name or e-mail');
    await user.clear(box);
    await user.type(box, 'other{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The search did not work');
    expect(alert).toHaveTextContent('Some of the information sent was not valid.');
  });
});

describe('user page', () => {
  it('shows status with the lockout reason, devices, bypass-code metadata and recent activity', async () => {
    const user = userEvent.setup();
    await renderPortal({
      path: '/admin/users/bob@example.com',
      profile: adminProfile('helpdesk'),
      api: (a) =>
        a
          .on('GET', BOB_PATH, () =>
            json(
              userDetail(
                {
                  bypassCodes: [
                    {
                      id: '0b6f7c1e-1111-4a2b-8c3d-000000000001',
                      createdAt: '2025-05-01T09:00:00.000Z',
                      expiresAt: '2025-05-02T09:00:00.000Z',
                      usesLeft: 1,
                      reuseCount: 1,
                      createdBy: 'helpdesk@example.com',
                    },
                  ],
                  activity: [
                    event(),
                    event({
                      id: '100',
                      action: 'mfa.verify',
                      outcome: 'failure',
                      reason: 'mfa.code_invalid',
                      actorUpn: 'bob@example.com',
                      details: { purpose: 'sign_in' },
                    }),
                  ],
                },
                { status: 'locked_out', statusReason: 'Too many failed attempts' },
              ),
            ),
          )
          .on('GET', `${BOB_PATH}/lost-device`, () => json(noProgress)),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bob Brown' })).toBeInTheDocument();
    const status = screen.getByRole('region', { name: 'Status' });
    expect(status).toHaveTextContent('Locked out');
    expect(status).toHaveTextContent('Reason given by the multi-factor service: Too many failed attempts');
    expect(status).toHaveTextContent('Protected accountNo');
    expect(status).toHaveTextContent("Devices2: Bob's phone, Key ring token");
    expect(within(status).getByRole('button', { name: 'Unlock' })).toBeEnabled();
    const devices = screen.getByRole('region', { name: 'Devices and codes' });
    expect(within(devices).getByRole('button', { name: "Remove “Bob's phone”" })).toBeInTheDocument();
    expect(within(devices).getByRole('button', { name: 'Resync “Key ring token”' })).toBeInTheDocument();
    expect(within(devices).queryByRole('button', { name: "Resync “Bob's phone”" })).not.toBeInTheDocument();
    expect(within(devices).getByRole('link', { name: 'Lost device wizard' })).toHaveAttribute(
      'href',
      '/admin/users/bob%40example.com/lost-device',
    );
    const codes = within(within(devices).getByRole('region', { name: 'Bypass codes' })).getByRole('table');
    expect(within(codes).getAllByRole('row')[1]).toHaveTextContent('May 1, 2025, 9:00 AMMay 2, 2025, 9:00 AM1 of 1helpdesk@example.com');
    await user.click(screen.getByRole('button', { name: 'Show the 2 latest events' }));
    const activity = screen.getByRole('table', { name: 'The 20 latest events about bob@example.com, newest first' });
    const [first, second] = within(activity).getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('Bypass codes issued');
    expect(first).toHaveTextContent('helpdesk@example.comas Helpdesk Administrator');
    expect(first).toHaveTextContent('Reason: Left his phone at homeTicket: INC-42');
    expect(second).toHaveTextContent('mfa.verify');
    expect(second).toHaveTextContent('FailedThat code is not correct.');
    expect(screen.getByRole('region', { name: 'Verify the caller' })).toHaveTextContent(
      'Verified by code at 10:00 AM, until 10:15 AM (ticket INC-42).',
    );
  });

  it("explains why a protected account's page is refused to a Helpdesk Administrator", async () => {
    await renderPortal({
      path: '/admin/users/admin@example.com',
      profile: adminProfile('helpdesk'),
      api: (a) =>
        a.on('GET', '/api/admin/users/admin%40example.com', () => apiError(403, 'auth.forbidden', { reason: 'protected_account' })),
    });
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('Not available to you');
    expect(note).toHaveTextContent(
      'This account is protected: its holder has an administrator role. Only a Solution Administrator can see or change it.',
    );
    expect(screen.getByRole('link', { name: 'Back to the user search' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Issue bypass codes|Remove/ })).not.toBeInTheDocument();
  });

  it('explains that the own account is not changed here, with a link to the own overview', async () => {
    await renderPortal({
      path: '/admin/users/helpdesk@example.com',
      profile: adminProfile('helpdesk'),
      api: (a) =>
        a.on('GET', '/api/admin/users/helpdesk%40example.com', () => apiError(403, 'auth.forbidden', { reason: 'own_account_via_admin' })),
    });
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('This is your own account');
    expect(note).toHaveTextContent('Administrators never change their own sign-in settings through the administration screens');
    expect(screen.getByRole('link', { name: 'Go to your own overview' })).toHaveAttribute('href', '/');
  });

  it('says when there is no such user', async () => {
    await renderPortal({
      path: '/admin/users/ghost@example.com',
      profile: adminProfile('helpdesk'),
      api: (a) => a.on('GET', '/api/admin/users/ghost%40example.com', () => apiError(404, 'admin.user_not_found')),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('ghost@example.com could not be shown');
    expect(alert).toHaveTextContent('No such user is known to the portal or the MFA provider.');
  });

  it('lets a Solution Administrator act on a protected account, saying it is protected', async () => {
    await renderPortal({
      path: '/admin/users/helpdesk@example.com',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/users/helpdesk%40example.com', () =>
            json(
              userDetail({
                user: {
                  upn: 'helpdesk@example.com',
                  displayName: 'Hana Helpdesk',
                  email: 'helpdesk@example.com',
                  roles: ['Helpdesk Administrator'],
                  lastSeenAt: null,
                },
                protection: { protected: true, reason: 'restricted_role' },
              }),
            ),
          )
          .on('GET', '/api/admin/users/helpdesk%40example.com/lost-device', () => json(noProgress)),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hana Helpdesk' })).toBeInTheDocument();
    expect(screen.getAllByRole('note')[0]).toHaveTextContent('Protected account');
    expect(screen.getByRole('button', { name: 'Issue bypass codes' })).toBeEnabled();
  });

  it('disables actions the policy refuses, with the reason', async () => {
    const refused = { allowed: false, reason: 'protected_account' };
    await renderPortal({
      path: '/admin/users/bob@example.com',
      profile: adminProfile('helpdesk'),
      api: (a) =>
        a.on('GET', BOB_PATH, () =>
          json(
            userDetail({
              actions: {
                verify_identity: refused,
                create_bypass_codes: refused,
                delete_device: refused,
                resync_token: refused,
                unlock: refused,
                send_activation: refused,
                disable_account: refused,
                revoke_bypass_codes: refused,
                issue_enrolment_pass: refused,
              },
            }),
          ),
        ),
    });
    expect(await screen.findByRole('button', { name: 'Issue bypass codes' })).toBeDisabled();
    expect(screen.getByRole('button', { name: "Remove “Bob's phone”" })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send an enrolment link' })).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'Lost device wizard' })).not.toBeInTheDocument();
    expect(screen.getByText('You cannot act on this account')).toBeInTheDocument();
  });
});
