import '../../lib/test/setup';
import { beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminToken } from '@mfa-portal/shared';
import { findDialog } from '../../lib/test/dialogs';
import { apiError, json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile } from './test-fixtures';

beforeAll(async () => {
  await import('./AdminArea');
});

const tok = (serial: string, overrides: Partial<AdminToken> = {}): AdminToken => ({
  serial,
  tokenType: 'Duo D100',
  status: 'available',
  assignedTo: null,
  assignedAt: null,
  createdAt: '2025-04-01T08:00:00.000Z',
  holderDevices: null,
  ...overrides,
});
const inventory = [
  tok('D100-0001', { status: 'assigned', assignedTo: 'bob@example.com', assignedAt: '2025-04-02T08:00:00.000Z', holderDevices: 2 }),
  tok('D100-0002'),
  tok('D100-0009', { status: 'retired' }),
];

describe('hardware tokens', () => {
  it('is for Solution Administrators only: a Helpdesk Administrator is told so, and nothing is asked', async () => {
    const { api } = await renderPortal({ path: '/admin/tokens', profile: adminProfile('helpdesk') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Not available for your role' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('This page is for Solution Administrators only.');
    expect(api.callsTo('GET', '/api/admin/tokens')).toHaveLength(0);
  });

  it('lists and searches tokens, with who holds them and what can be done with each', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/tokens',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a.on(
          'GET',
          '/api/admin/tokens',
          () => json({ tokens: inventory }),
          () => json({ tokens: [] }),
        ),
    });
    const table = await screen.findByRole('table', { name: 'Hardware tokens' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'D100-0001Duo D100Assignedbob@example.comsince Apr 2, 2025Apr 1, 2025Unassign',
      'D100-0002Duo D100Available–Apr 1, 2025Retire',
      'D100-0009Duo D100Retired–Apr 1, 2025–',
    ]);
    expect(within(rows[0]!).getByRole('link', { name: 'bob@example.com' })).toHaveAttribute('href', '/admin/users/bob%40example.com/');
    await user.type(screen.getByLabelText('Serial or holder'), 'zzz');
    await user.selectOptions(screen.getByLabelText('Status'), 'retired');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText('No tokens match')).toBeInTheDocument();
    const last = api.callsTo('GET', '/api/admin/tokens').at(-1)!;
    expect([last.query.get('q'), last.query.get('status'), last.query.get('limit')]).toEqual(['zzz', 'retired', '100']);
  });

  it('unassigns and retires after confirmation, with reason and ticket; a refusal is shown in words', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/tokens',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/tokens', () => json({ tokens: inventory }))
          .on('POST', '/api/admin/tokens/D100-0001/unassign', () => json(tok('D100-0001')))
          .on('POST', '/api/admin/tokens/D100-0002/retire', () => apiError(409, 'token.assigned')),
    });
    await user.click(await screen.findByRole('button', { name: 'Unassign D100-0001' }));
    let dialog = await findDialog('Unassign D100-0001?');
    expect(dialog).toHaveTextContent('bob@example.com will no longer be able to use D100-0001');
    // Its own hint: an inventory change has no caller to verify.
    expect(dialog).toHaveTextContent(
      'Why you are taking the token back, for example that bob@example.com returned it or reported it lost.',
    );
    expect(dialog).not.toHaveTextContent(/caller/);
    await user.type(within(dialog).getByLabelText('Reason'), 'Token returned');
    await user.type(within(dialog).getByLabelText('Ticket reference'), 'INC-9');
    await user.click(within(dialog).getByRole('button', { name: 'Unassign' }));
    expect(await screen.findByText('D100-0001 is available again.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/admin/tokens/D100-0001/unassign')[0]?.body).toEqual({
      reason: 'Token returned',
      ticket: 'INC-9',
      confirmLastDevice: false,
    });

    await user.click(screen.getByRole('button', { name: 'Retire D100-0002' }));
    dialog = await findDialog('Retire D100-0002?');
    expect(within(dialog).getByLabelText('Ticket reference')).toHaveValue('INC-9');
    expect(dialog).toHaveTextContent('Why the token is retired, for example that it is broken or was lost.');
    expect(dialog).not.toHaveTextContent(/caller/);
    await user.click(within(dialog).getByRole('button', { name: 'Retire' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The token was not retired');
    expect(alert).toHaveTextContent('This hardware token is assigned to someone: unassign it first.');
  });

  it("warns before unassigning the holder's only device, and asks them to acknowledge it, as Remove does", async () => {
    const user = userEvent.setup();
    const paul = tok('D100-0016', {
      status: 'assigned',
      assignedTo: 'paul@example.com',
      assignedAt: '2025-04-02T08:00:00.000Z',
      holderDevices: 1,
    });
    const { api } = await renderPortal({
      path: '/admin/tokens',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/tokens', () => json({ tokens: [paul] }))
          .on('POST', '/api/admin/tokens/D100-0016/unassign', () => json(tok('D100-0016'))),
    });
    await user.click(await screen.findByRole('button', { name: 'Unassign D100-0016' }));
    const dialog = await findDialog('Unassign D100-0016?');
    expect(within(dialog).getByText('This is their only device')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('After this, paul@example.com cannot sign in with a second factor until they add a device.');
    await user.type(within(dialog).getByLabelText('Reason'), 'Token returned');
    await user.type(within(dialog).getByLabelText('Ticket reference'), 'INC-16');
    const submit = within(dialog).getByRole('button', { name: 'Unassign' });
    expect(submit).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'I understand that they will have no device left' }));
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(await screen.findByText('D100-0016 is available again.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/admin/tokens/D100-0016/unassign')[0]?.body).toEqual({
      reason: 'Token returned',
      ticket: 'INC-16',
      confirmLastDevice: true,
    });
  });

  it('warns when the server says it became their only device since the list was read, instead of showing an error', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/tokens',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/tokens', () => json({ tokens: inventory }))
          .on(
            'POST',
            '/api/admin/tokens/D100-0001/unassign',
            () => apiError(409, 'device.last_device_confirmation_required'),
            () => json(tok('D100-0001')),
          ),
    });
    await user.click(await screen.findByRole('button', { name: 'Unassign D100-0001' }));
    const dialog = await findDialog('Unassign D100-0001?');
    await user.type(within(dialog).getByLabelText('Reason'), 'Token returned');
    await user.type(within(dialog).getByLabelText('Ticket reference'), 'INC-9');
    await user.click(within(dialog).getByRole('button', { name: 'Unassign' }));
    expect(await within(dialog).findByText('This is their only device')).toBeInTheDocument();
    expect(within(dialog).queryByText('The token was not unassigned')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: 'I understand that they will have no device left' }));
    await user.click(within(dialog).getByRole('button', { name: 'Unassign' }));
    expect(await screen.findByText('D100-0001 is available again.')).toBeInTheDocument();
    expect(
      api.callsTo('POST', '/api/admin/tokens/D100-0001/unassign').map((c) => (c.body as { confirmLastDevice: boolean }).confirmLastDevice),
    ).toEqual([false, true]);
  });

  it('imports a CSV file and reports, row by row, what was refused and why', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/tokens',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/tokens', () => json({ tokens: inventory }))
          .on('POST', '/api/admin/tokens/import', () =>
            json({ imported: 1, refused: [{ line: 3, serial: 'D100-9002', reason: 'seed_invalid' }] }),
          ),
    });
    const importForm = (await screen.findByRole('heading', { name: 'Import tokens' })).closest('section')!;
    expect(importForm).toHaveTextContent('Why you are importing these tokens, for example the delivery they came with.');
    expect(importForm).not.toHaveTextContent(/caller/);
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Please choose the file to import.')).toBeInTheDocument();
    const csv = 'serial,seed\nD100-9001,0101010101010101010101010101010101010101\nD100-9002,not-hex\n';
    await user.upload(screen.getByLabelText('Seed file (CSV)'), new File([csv], 'tokens.csv', { type: 'text/csv' }));
    await user.type(screen.getByLabelText('Reason'), 'New batch from the supplier');
    await user.type(screen.getByLabelText('Ticket reference'), 'CHG-100');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('1 token imported')).toBeInTheDocument();
    expect(screen.getByText('1 row was refused. See why below, correct it and import it again.')).toBeInTheDocument();
    const refused = screen.getByRole('table', { name: 'Refused rows' });
    expect(within(refused).getAllByRole('row')[1]).toHaveTextContent('3D100-9002The seed must be hexadecimal');
    expect(api.callsTo('POST', '/api/admin/tokens/import')[0]?.body).toEqual({
      csv,
      reason: 'New batch from the supplier',
      ticket: 'CHG-100',
    });
  });

  it('says the inventory is managed in the MFA service when it keeps its own (Duo answers 409), with no error and no import', async () => {
    const { api } = await renderPortal({
      path: '/admin/tokens',
      profile: adminProfile('solution_admin'),
      api: (a) => a.on('GET', '/api/admin/tokens', () => apiError(409, 'mfa.not_supported_by_provider')),
    });
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent("Hardware tokens are managed in your organisation's multi-factor service");
    expect(note).toHaveTextContent('with Duo, in the Duo Admin Panel');
    expect(within(note).getByRole('link', { name: 'Find a user' })).toHaveAttribute('href', '/admin/users');
    expect(screen.getByRole('heading', { level: 1, name: 'Hardware tokens' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('The tokens could not be loaded')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Seed file (CSV)')).not.toBeInTheDocument();
    // Asked once: a refusal that will not change is not retried.
    expect(api.callsTo('GET', '/api/admin/tokens')).toHaveLength(1);
  });
});
