import '../../lib/test/setup';
import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FACTOR_KINDS, type FactorPolicyPreview, type FactorPolicyResponse } from '@mfa-portal/shared';
import { apiError, json, type installFakeApi } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile } from './test-fixtures';

beforeAll(async () => {
  await import('./AdminArea');
});

const CONTRACTORS = '0f1e2d3c-4b5a-4978-8877-665544332211';
const open = (): FactorPolicyResponse => ({
  global: {
    enrol: [...FACTOR_KINDS],
    use: [...FACTOR_KINDS],
    requirePhishingResistant: false,
    maxPerKind: {},
    updatedBy: null,
    updatedAt: null,
  },
  overrides: [],
});
const withContractors = (): FactorPolicyResponse => ({
  ...open(),
  overrides: [
    {
      enrol: ['security_key'],
      use: ['security_key'],
      requirePhishingResistant: false,
      maxPerKind: { security_key: 2 },
      updatedBy: 'admin@example.com',
      updatedAt: '2026-05-01T10:00:00.000Z',
      group: { id: CONTRACTORS, name: 'Contractors', memberCount: 3 },
    },
  ],
});
const preview = (over: Partial<FactorPolicyPreview> = {}): FactorPolicyPreview => ({
  affected: 2,
  loseEveryFactor: { count: 1, people: [{ upn: 'tina@example.com', displayName: 'Tina Test', kinds: ['authenticator_app'] }] },
  holdDisallowed: { count: 0, people: [] },
  refused: true,
  ...over,
});

type FakeApi = ReturnType<typeof installFakeApi>;
const render = (body: FactorPolicyResponse, more: (a: FakeApi) => unknown = () => undefined) =>
  renderPortal({
    path: '/admin/factor-policy',
    profile: adminProfile('solution_admin'),
    api: (a) => void more(a.on('GET', '/api/admin/factor-policy', () => json(body))),
  });

const everyone = () => screen.getByRole('form', { name: 'Policy for everyone' });

describe('the factor policy screen', () => {
  it('shows the organisation’s policy as a table of labelled checkboxes and maximum fields, and explains the strictest combination', async () => {
    await render(open());
    expect(await screen.findByRole('heading', { level: 1, name: 'Factor policy' })).toBeInTheDocument();
    expect(screen.getByText(/the strictest of them: only the kinds every one of them allows/)).toBeInTheDocument();
    const form = everyone();
    expect(within(form).getByRole('checkbox', { name: 'Security key (USB or NFC): may be added' })).toBeChecked();
    expect(within(form).getByRole('checkbox', { name: 'Bypass codes: may be used' })).toBeChecked();
    expect(within(form).getByRole('spinbutton', { name: 'Hardware token: most a person may hold' })).toHaveValue('');
    expect(within(form).getByRole('checkbox', { name: 'Require a passkey or security key (phishing-resistant)' })).not.toBeChecked();
    expect(screen.getByText('No group has a policy of its own: the organisation’s policy applies to everyone.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Factor policy' })).toHaveAttribute('aria-current', 'page');
  });

  it('previews a change before saving it: who would be left with no device, and that saving would be refused', async () => {
    const user = userEvent.setup();
    const { api } = await render(open(), (a) => a.on('POST', '/api/admin/factor-policy/preview', () => json(preview())));
    await user.click(
      await within(await screen.findByRole('form', { name: 'Policy for everyone' })).findByRole('checkbox', { name: /Require a passkey/ }),
    );
    await user.click(within(everyone()).getByRole('button', { name: 'Preview' }));
    const result = await screen.findByRole('region', { name: 'What this would do' });
    expect(result).toHaveTextContent('2 people would have a different policy.');
    expect(result).toHaveTextContent('Saving this would be refused.');
    expect(result).toHaveTextContent('Would be left with no device they may use: 1');
    expect(within(result).getByText('Tina Test (tina@example.com): Authenticator app')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/admin/factor-policy/preview')[0]?.body).toEqual({
      scope: { kind: 'global' },
      policy: { enrol: [...FACTOR_KINDS], use: [...FACTOR_KINDS], requirePhishingResistant: true, maxPerKind: {} },
    });
    // Nothing was saved by a preview.
    expect(api.callsTo('PUT', '/api/admin/factor-policy/global')).toEqual([]);
  });

  it('shows a refused save with the reason and the people it would leave without a device', async () => {
    const user = userEvent.setup();
    await render(open(), (a) =>
      a.on('PUT', '/api/admin/factor-policy/global', () =>
        apiError(409, 'factor_policy.would_leave_without_factor', {
          reason: '2 people would be left with no factor they may use to sign in (they hold only authenticator apps).',
          count: 2,
          people: ['tina@example.com', 'uma@example.com'],
        }),
      ),
    );
    await user.click(
      await within(await screen.findByRole('form', { name: 'Policy for everyone' })).findByRole('checkbox', {
        name: 'Authenticator app: may be used',
      }),
    );
    await user.click(within(everyone()).getByRole('button', { name: 'Save' }));
    const alert = (await screen.findByText('Not saved: some people would be left with no device they may use')).closest('[role="alert"]')!;
    expect(alert).toHaveTextContent('Not saved: some people would be left with no device they may use');
    expect(alert).toHaveTextContent('tina@example.com');
    expect(alert).toHaveTextContent('uma@example.com');
  });

  it('saves a maximum typed in, with the keyboard alone', async () => {
    const user = userEvent.setup();
    const { api } = await render(open(), (a) =>
      a.on('PUT', '/api/admin/factor-policy/global', (call) =>
        json({ ...(call.body as object), updatedBy: 'admin@example.com', updatedAt: '2026-05-01T10:00:00.000Z' }),
      ),
    );
    const max = await within(await screen.findByRole('form', { name: 'Policy for everyone' })).findByRole('spinbutton', {
      name: 'Bypass codes: most a person may hold',
    });
    await user.click(max);
    await user.keyboard('20');
    await user.tab();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(api.callsTo('PUT', '/api/admin/factor-policy/global')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/admin/factor-policy/global')[0]?.body).toMatchObject({ maxPerKind: { bypass_codes: 20 } });
  });

  it('lists a group’s own policy, changes it and removes it after asking', async () => {
    const user = userEvent.setup();
    const { api } = await render(withContractors(), (a) =>
      a
        .on('PUT', `/api/admin/factor-policy/groups/${CONTRACTORS}`, () => json(withContractors().overrides[0]))
        .on('DELETE', `/api/admin/factor-policy/groups/${CONTRACTORS}`, () => json(withContractors().overrides[0])),
    );
    expect(await screen.findByRole('heading', { level: 3, name: 'Contractors (3 members)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Change the policy of Contractors' }));
    const form = screen.getByRole('form', { name: 'Policy for Contractors' });
    expect(within(form).getByRole('checkbox', { name: 'Passkey (this computer or phone): may be added' })).not.toBeChecked();
    expect(within(form).getByRole('spinbutton', { name: 'Security key (USB or NFC): most a person may hold' })).toHaveValue('2');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT', `/api/admin/factor-policy/groups/${CONTRACTORS}`)).toHaveLength(1));
    await user.click(await screen.findByRole('button', { name: 'Remove the policy of Contractors' }));
    await user.click(screen.getByRole('button', { name: 'Remove the policy' }));
    await waitFor(() => expect(api.callsTo('DELETE', `/api/admin/factor-policy/groups/${CONTRACTORS}`)).toHaveLength(1));
  });

  it('gives a directory group found by name a policy of its own', async () => {
    const user = userEvent.setup();
    const { api } = await render(open(), (a) =>
      a
        .on('GET', '/api/admin/directory-groups', () =>
          json({ groups: [{ id: CONTRACTORS, name: 'Contractors', memberCount: 3 }], more: false }),
        )
        .on('POST', '/api/admin/factor-policy/groups', () => json(withContractors().overrides[0], 201)),
    );
    await user.type(await screen.findByLabelText('Find a directory group'), 'contr');
    await user.click(await screen.findByRole('button', { name: 'Choose Contractors' }));
    const form = screen.getByRole('form', { name: 'Policy for Contractors' });
    for (const kind of ['Passkey (this computer or phone)', 'Authenticator app', 'Hardware token'])
      await user.click(within(form).getByRole('checkbox', { name: `${kind}: may be added` }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/admin/factor-policy/groups')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/admin/factor-policy/groups')[0]?.body).toMatchObject({
      groupId: CONTRACTORS,
      enrol: ['security_key', 'portal_authenticator', 'phone', 'bypass_codes'],
    });
  });
});
