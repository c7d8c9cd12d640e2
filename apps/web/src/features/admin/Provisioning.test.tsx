import '../../lib/test/setup';
import { beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile, BOB_PATH, noProgress, userDetail } from './test-fixtures';

beforeAll(async () => {
  await import('./AdminArea');
});

const token = {
  id: 't1',
  name: 'Entra production',
  createdBy: 'admin@example.com',
  createdAt: '2025-05-01T10:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
};
const list = (tokens = [token]) => ({ tokens, environmentToken: false, endpoint: 'https://mfa.example.org/scim/v2' });

describe('provisioning: SCIM tokens (Solution Administrator)', () => {
  it('shows the endpoint, creates a token shown once, and revokes one', { timeout: 30_000 }, async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/provisioning',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/scim-tokens', () => json(list()))
          .on(
            'POST',
            '/api/admin/scim-tokens',
            () => apiError(409, 'scim_token.name_taken', { field: 'name' }),
            () => json({ token: { ...token, id: 't2', name: 'Staging' }, secret: 'scim_SECRET-shown-once' }, 201),
          )
          .on('DELETE', '/api/admin/scim-tokens/t1', () => json({ ...token, revokedAt: '2025-05-02T10:00:00.000Z' })),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Provisioning' })).toBeInTheDocument();
    expect(await screen.findByText('https://mfa.example.org/scim/v2')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Entra production' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Name'), 'Staging');
    await user.click(screen.getByRole('button', { name: 'Create the token' }));
    expect(await screen.findByText('A provisioning token with this name already exists. Choose another name.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create the token' }));
    expect(await screen.findByText('scim_SECRET-shown-once')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByText('scim_SECRET-shown-once')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Revoke the token Entra production' }));
    expect(api.callsTo('DELETE', '/api/admin/scim-tokens/t1')).toHaveLength(1);
    expect(api.callsTo('POST', '/api/admin/scim-tokens').map((c) => c.body)).toEqual([{ name: 'Staging' }, { name: 'Staging' }]);
  });

  it('is not offered to the helpdesk', { timeout: 30_000 }, async () => {
    await renderPortal({
      path: '/admin/users',
      profile: adminProfile('helpdesk'),
      api: (a) => a.on('GET', '/api/admin/users', () => json({ users: [], nextCursor: null })),
    });
    expect(await screen.findByRole('navigation', { name: 'Administration' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Provisioning' })).not.toBeInTheDocument();
  });
});

describe('user page: account lifecycle', () => {
  it(
    'shows where the account came from, disables it with a reason and issues an enrolment pass shown once',
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      const detail = userDetail({
        user: {
          upn: 'bob@example.com',
          displayName: 'Bob Brown',
          email: 'bob@example.com',
          roles: [],
          lastSeenAt: null,
          source: 'scim',
          createdAt: '2025-04-01T10:00:00.000Z',
          updatedAt: '2025-04-02T10:00:00.000Z',
          groups: ['Finance'],
        },
      });
      const { api } = await renderPortal({
        path: '/admin/users/bob@example.com',
        profile: adminProfile('helpdesk'),
        api: (a) =>
          a
            .on('GET', BOB_PATH, () => json(detail))
            .on('GET', `${BOB_PATH}/lost-device`, () => json(noProgress))
            .on('GET', `${BOB_PATH}/enrolment-passes`, () => json({ passes: [] }))
            .on('POST', `${BOB_PATH}/disable`, () => json({ ...detail.mfa, status: 'disabled', statusReason: 'Left the company' }))
            .on('POST', `${BOB_PATH}/enrolment-passes`, () =>
              json(
                {
                  pass: 'ABCD-EFGH-JKLM-NPQR',
                  info: {
                    id: 'p1',
                    createdAt: '2025-05-01T10:00:00.000Z',
                    expiresAt: '2025-05-01T11:00:00.000Z',
                    maxUses: 1,
                    usesLeft: 1,
                    createdBy: 'helpdesk@example.com',
                    reason: 'x',
                    redeemedAt: null,
                    revokedAt: null,
                  },
                },
                201,
              ),
            ),
      });
      await screen.findByRole('heading', { level: 1, name: 'Bob Brown' });
      expect(screen.getByText("The organisation's directory (SCIM provisioning)")).toBeInTheDocument();
      expect(screen.getByText('Finance')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Disable the account' }));
      const dialog = await findDialog('Disable the account of bob@example.com');
      await user.type(within(dialog).getByLabelText('Reason'), 'Left the company');
      await user.type(within(dialog).getByLabelText('Ticket reference'), 'INC-7');
      await user.click(within(dialog).getByRole('button', { name: 'Disable the account' }));
      await screen.findByRole('button', { name: 'Issue an enrolment pass' });
      expect(api.callsTo('POST', `${BOB_PATH}/disable`).map((c) => c.body)).toEqual([{ reason: 'Left the company', ticket: 'INC-7' }]);

      await user.click(screen.getByRole('button', { name: 'Issue an enrolment pass' }));
      const passDialog = await findDialog('Issue an enrolment pass for bob@example.com');
      await user.click(within(passDialog).getByRole('button', { name: 'Issue the pass' }));
      expect(await screen.findByText('ABCD-EFGH-JKLM-NPQR')).toBeInTheDocument();
      expect(api.callsTo('POST', `${BOB_PATH}/enrolment-passes`).map((c) => c.body)).toEqual([
        { uses: 1, lifetimeMinutes: 60, reason: 'Left the company', ticket: 'INC-7' },
      ]);
    },
  );
});
