import '../../lib/test/setup';
import { beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUnit } from '@mfa-portal/shared';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile } from './test-fixtures';

beforeAll(async () => {
  await import('./AdminArea');
});

const FINANCE_GROUP = { id: '11111111-1111-4111-8111-111111111111', name: 'Finance', memberCount: 12 };
const DESK_GROUP = { id: '22222222-2222-4222-8222-222222222222', name: 'Finance desk', memberCount: 2 };
const finance: AdminUnit = {
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Finance',
  createdBy: 'admin@example.com',
  createdAt: '2025-05-01T10:00:00.000Z',
  updatedAt: '2025-05-01T10:00:00.000Z',
  members: { groups: [FINANCE_GROUP], people: [{ upn: 'tina@example.com', displayName: 'Tina Turner' }], count: 13 },
  helpdesk: { groups: [], people: [{ upn: 'sam@example.com', displayName: 'Sam Stone' }] },
};
const groups = () => json({ groups: [FINANCE_GROUP, DESK_GROUP], more: false });

describe('administrative units (Solution Administrator)', () => {
  it(
    'starts empty, then creates a unit of a group and a person with a helpdesk member, with the keyboard',
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      const { api } = await renderPortal({
        path: '/admin/units',
        profile: adminProfile('solution_admin'),
        api: (a) =>
          a
            .on(
              'GET',
              '/api/admin/units',
              () => json({ units: [] }),
              () => json({ units: [finance] }),
            )
            .on('GET', '/api/admin/directory-groups', groups)
            .on('POST', '/api/admin/units', () => json(finance, 201)),
      });
      expect(await screen.findByRole('heading', { level: 1, name: 'Administrative units' })).toBeInTheDocument();
      expect(await screen.findByText('No units yet')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'New unit' }));
      expect(screen.getByRole('heading', { level: 2, name: 'New unit' })).toHaveFocus();
      const save = screen.getByRole('button', { name: 'Save the unit' });
      expect(save).toBeDisabled();
      await user.tab();
      expect(screen.getByLabelText('Name')).toHaveFocus();
      await user.keyboard('Finance');

      const members = screen.getByRole('group', { name: 'Directory groups' });
      await user.click(await within(members).findByRole('button', { name: 'Add Finance' }));
      expect(within(members).getByRole('list', { name: 'Directory groups: Groups chosen' })).toHaveTextContent('Finance (12 members)');

      // Enter in a sign-in name adds the person; it does not send the form.
      const people = screen.getByRole('group', { name: 'People' });
      await user.type(within(people).getByLabelText('Sign-in name'), 'not a name{Enter}');
      expect(within(people).getByRole('alert')).toHaveTextContent('Type a sign-in name such as name@example.com.');
      await user.clear(within(people).getByLabelText('Sign-in name'));
      await user.type(within(people).getByLabelText('Sign-in name'), 'Tina@Example.com{Enter}');
      expect(within(people).getByRole('list')).toHaveTextContent('tina@example.com');
      const helpdesk = screen.getByRole('group', { name: 'Helpdesk Administrators' });
      await user.type(within(helpdesk).getByLabelText('Sign-in name'), 'sam@example.com{Enter}');
      expect(api.callsTo('POST', '/api/admin/units')).toHaveLength(0);

      await user.click(save);
      expect(await screen.findByText('The unit Finance was saved.')).toBeInTheDocument();
      expect(api.callsTo('POST', '/api/admin/units').map((c) => c.body)).toEqual([
        {
          name: 'Finance',
          members: { groups: [FINANCE_GROUP.id], people: ['tina@example.com'] },
          helpdesk: { groups: [], people: ['sam@example.com'] },
        },
      ]);
      const table = await screen.findByRole('table', { name: 'Administrative units' });
      const row = within(table).getByRole('row', { name: /Finance/ });
      expect(row).toHaveTextContent('Groups: Finance');
      expect(row).toHaveTextContent('People: tina@example.com');
      expect(row).toHaveTextContent('13 people in all');
      expect(row).toHaveTextContent('sam@example.com');
      expect(screen.getByRole('heading', { level: 2, name: 'Units' })).toHaveFocus();
    },
  );

  it('names the entry the server refused, and keeps what was typed', { timeout: 30_000 }, async () => {
    const user = userEvent.setup();
    await renderPortal({
      path: '/admin/units',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/units', () => json({ units: [] }))
          .on('GET', '/api/admin/directory-groups', groups)
          .on('POST', '/api/admin/units', () => apiError(400, 'unit.person_unknown', { field: 'members.people.1', reason: 'x' })),
    });
    await user.click(await screen.findByRole('button', { name: 'New unit' }));
    await user.type(screen.getByLabelText('Name'), 'Sales');
    const people = screen.getByRole('group', { name: 'People' });
    await user.type(within(people).getByLabelText('Sign-in name'), 'uma@example.com{Enter}');
    await user.type(within(people).getByLabelText('Sign-in name'), 'nobody@example.com{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save the unit' }));
    expect(await screen.findByText("nobody@example.com: That person is not in the portal's directory.")).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Sales');
  });

  it('edits a unit (removing its group) and deletes one after saying what that changes', { timeout: 30_000 }, async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/units',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/units', () => json({ units: [finance] }))
          .on('GET', '/api/admin/directory-groups', groups)
          .on('PUT', `/api/admin/units/${finance.id}`, () => json({ ...finance, members: { ...finance.members, groups: [] } }))
          .on('DELETE', `/api/admin/units/${finance.id}`, () => json(finance)),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Finance' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Edit Finance' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Remove Finance' }));
    await user.click(screen.getByRole('button', { name: 'Save the unit' }));
    expect(await screen.findByText('The unit Finance was saved.')).toBeInTheDocument();
    expect(api.callsTo('PUT', `/api/admin/units/${finance.id}`)[0]?.body).toMatchObject({
      members: { groups: [], people: ['tina@example.com'] },
    });

    await user.click(screen.getByRole('button', { name: 'Delete Finance' }));
    const confirm = screen.getByRole('group', { name: /Delete Finance\?/ });
    expect(within(confirm).getByRole('button', { name: 'Delete the unit' })).toHaveFocus();
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(api.callsTo('DELETE', `/api/admin/units/${finance.id}`)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete Finance' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByText('The unit Finance was deleted.')).toBeInTheDocument();
    expect(api.callsTo('DELETE', `/api/admin/units/${finance.id}`)).toHaveLength(1);
  });

  it('is not offered to the helpdesk', { timeout: 30_000 }, async () => {
    await renderPortal({
      path: '/admin/users',
      profile: adminProfile('helpdesk'),
      api: (a) => a.on('GET', '/api/admin/users', () => json({ users: [], nextCursor: null })),
    });
    expect(await screen.findByRole('navigation', { name: 'Administration' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Units' })).not.toBeInTheDocument();
  });
});

describe('whom a helpdesk member can help', () => {
  it('names their units on the search page, and offers their units’ reports', { timeout: 30_000 }, async () => {
    await renderPortal({
      path: '/admin/users',
      profile: adminProfile('helpdesk'),
      api: (a) =>
        a.on('GET', '/api/admin/units/mine', () =>
          json({
            reach: 'units',
            units: [
              { id: 'a', name: 'Finance' },
              { id: 'b', name: 'Sales' },
            ],
          }),
        ),
    });
    expect(await screen.findByText('You can help people in: Finance, Sales.')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Reports' })).toBeInTheDocument();
  });

  it('says plainly when they are assigned to no unit where one is required', { timeout: 30_000 }, async () => {
    await renderPortal({
      path: '/admin/users',
      profile: adminProfile('helpdesk'),
      api: (a) => a.on('GET', '/api/admin/units/mine', () => json({ reach: 'nobody', units: [] })),
    });
    expect(await screen.findByRole('note')).toHaveTextContent(
      'You are not assigned to any administrative unit yet, so you cannot help anyone here. Ask a Solution Administrator to assign you to a unit.',
    );
    expect(screen.queryByRole('link', { name: 'Reports' })).not.toBeInTheDocument();
  });
});
