import '../../lib/test/setup';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile, event } from './test-fixtures';

beforeAll(async () => {
  await import('./AdminArea');
});

const withClient = (e: ReturnType<typeof event>) => ({ ...e, clientAddress: '127.0.0.1' });

describe('audit log', () => {
  it('is for Solution Administrators only', async () => {
    const { api } = await renderPortal({ path: '/admin/audit', profile: adminProfile('helpdesk') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Not available for your role' })).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path.startsWith('/api/admin/audit'))).toEqual([]);
  });

  it('filters by actor, target, action, outcome and time range, and pages with "Show older events"', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/audit',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a.on('GET', '/api/admin/audit', (call) =>
          call.query.get('cursor')
            ? json({
                events: [
                  withClient(event({ id: '7', action: 'device.delete', actorUpn: 'bob@example.com', details: { deviceName: 'x' } })),
                ],
                nextCursor: null,
              })
            : json({
                events: [withClient(event({ id: '9' })), withClient(event({ id: '8', outcome: 'failure', reason: 'auth.forbidden' }))],
                nextCursor: '8',
              }),
        ),
    });
    const table = await screen.findByRole('table', { name: 'Audit events, newest first' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('FailedYou do not have permission to do this.');
    await user.click(screen.getByRole('button', { name: 'Show older events' }));
    expect(await screen.findByText('3 events shown.')).toBeInTheDocument();
    expect(screen.getByText('That is everything that matches.')).toBeInTheDocument();

    // Part of a name is enough; the action is chosen by its name in words, sent as the API's.
    await user.type(screen.getByLabelText('Done by'), 'helpdesk');
    await user.type(screen.getByLabelText('About'), 'grace');
    await user.selectOptions(screen.getByLabelText('Action'), 'Every administrative action');
    await user.selectOptions(screen.getByLabelText('Outcome'), 'failure');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-05-01T08:00' } });
    fireEvent.change(screen.getByLabelText('Until'), { target: { value: '2025-05-02T08:00' } });
    await user.click(screen.getByRole('button', { name: 'Show events' }));
    await vi.waitFor(() => expect(api.callsTo('GET', '/api/admin/audit').at(-1)?.query.get('actor')).toBe('helpdesk'));
    const q = api.callsTo('GET', '/api/admin/audit').at(-1)!.query;
    expect(Object.fromEntries(q)).toEqual({
      actor: 'helpdesk',
      target: 'grace',
      action: 'admin.*',
      outcome: 'failure',
      from: new Date('2025-05-01T08:00').toISOString(),
      to: new Date('2025-05-02T08:00').toISOString(),
      limit: '50',
    });
  });

  it('offers the actions by name, grouped, never as internal names, and keeps one from the address that it does not name', async () => {
    const { api } = await renderPortal({
      path: '/admin/audit?action=device.webauthn_register_start',
      profile: adminProfile('solution_admin'),
      api: (a) => a.on('GET', '/api/admin/audit', () => json({ events: [], nextCursor: null })),
    });
    expect(await screen.findByText('No events match')).toBeInTheDocument();
    const select = screen.getByLabelText('Action');
    const groups = within(select)
      .getAllByRole('group')
      .map((g) => g.getAttribute('label'));
    expect(groups).toEqual([
      'Signing in',
      "Staff's own changes",
      'Service desk, for a person',
      'Administration',
      "The organisation's directory",
    ]);
    const labels = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent ?? '');
    expect(labels).toEqual(
      expect.arrayContaining(['Any action', 'Identity check', 'Wrong code at sign-in', 'Every administrative action']),
    );
    // No label is an internal name, except the one that came in the address, shown as it is.
    expect(labels.filter((l) => /[a-z_]+\.[a-z_.*]+/.test(l))).toEqual(['Other: device.webauthn_register_start']);
    expect(select).toHaveValue('device.webauthn_register_start');
    expect(api.callsTo('GET', '/api/admin/audit')[0]?.query.get('action')).toBe('device.webauthn_register_start');
  });

  it('refuses a time range that ends before it starts, before asking', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/audit',
      profile: adminProfile('solution_admin'),
      api: (a) => a.on('GET', '/api/admin/audit', () => json({ events: [], nextCursor: null })),
    });
    expect(await screen.findByText('No events match')).toBeInTheDocument();
    const before = api.callsTo('GET', '/api/admin/audit').length;
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-05-02T08:00' } });
    fireEvent.change(screen.getByLabelText('Until'), { target: { value: '2025-05-01T08:00' } });
    await user.click(screen.getByRole('button', { name: 'Show events' }));
    expect(await screen.findByText('“Until” must not be before “From”.')).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/admin/audit')).toHaveLength(before);
  });

  it('while a new filter is applied, says so and marks the old rows busy instead of counting them as the answer', async () => {
    const user = userEvent.setup();
    let answer!: () => void;
    await renderPortal({
      path: '/admin/audit',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a.on(
          'GET',
          '/api/admin/audit',
          () => json({ events: [withClient(event({ id: '9', targetUpn: 'bob@example.com' }))], nextCursor: null }),
          () =>
            new Promise((resolve) => {
              answer = () => resolve(json({ events: [withClient(event({ id: '8', targetUpn: 'grace@example.com' }))], nextCursor: null }));
            }),
        ),
    });
    const region = await screen.findByRole('region', { name: 'Audit events, newest first' });
    expect(screen.getByText('1 event shown.')).toBeInTheDocument();
    expect(region).not.toHaveAttribute('aria-busy');

    await user.type(screen.getByLabelText('About'), 'grace');
    await user.click(screen.getByRole('button', { name: 'Show events' }));
    // The form's submit reaches the query through the address: allow a busy machine its moment.
    expect(await screen.findByText('Finding the events that match...', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText('1 event shown.')).not.toBeInTheDocument();
    expect(region).toHaveAttribute('aria-busy', 'true');
    expect(region).toHaveTextContent('bob@example.com');

    answer();
    expect(await screen.findByText('1 event shown.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(region).not.toHaveAttribute('aria-busy');
    expect(region).toHaveTextContent('grace@example.com');
    expect(region).not.toHaveTextContent('bob@example.com');
  });

  it('lets long sign-in names wrap after "@" and dots only, never inside a word', async () => {
    const upn = 'maximiliana.vandersteenhoven@research.example.com';
    await renderPortal({
      path: '/admin/audit',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a.on('GET', '/api/admin/audit', () =>
          json({ events: [withClient(event({ id: '9', actorUpn: upn, targetUpn: 'grace@example.com' }))], nextCursor: null }),
        ),
    });
    const table = await screen.findByRole('table', { name: 'Audit events, newest first' });
    const [, , who, about] = within(table).getAllByRole('cell');
    for (const [cell, value, breaks] of [
      [who!, upn, 4],
      [about!, 'grace@example.com', 2],
    ] as const) {
      const name = cell.querySelector('.sign-in-name')!;
      expect(name.textContent).toBe(value);
      const wbr = [...name.querySelectorAll('wbr')];
      expect(wbr).toHaveLength(breaks);
      // Each break follows an "@" or a dot.
      for (const w of wbr) expect(w.previousSibling?.textContent).toMatch(/[@.]$/);
    }
  });

  it('exports the filtered log as a CSV file', async () => {
    const user = userEvent.setup();
    const csv = 'id,occurred_at,actor\r\n9,2025-05-01T10:00:00.000Z,helpdesk@example.com\r\n';
    const { api } = await renderPortal({
      path: '/admin/audit?actor=helpdesk%40example.com',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/audit', () => json({ events: [withClient(event())], nextCursor: null }))
          .on('GET', '/api/admin/audit.csv', () => new Response(csv, { status: 200, headers: { 'content-type': 'text/csv' } })),
    });
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:audit');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    await user.click(await screen.findByRole('button', { name: 'Export as CSV' }));
    await vi.waitFor(() => expect(names).toEqual([expect.stringMatching(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/)]));
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(createObjectURL.mock.calls[0]![0]);
    });
    expect(text).toBe(csv);
    expect(api.callsTo('GET', '/api/admin/audit.csv')[0]?.query.get('actor')).toBe('helpdesk@example.com');
  });

  it('verifies the chain on the server: shows its progress, then reports it intact or the first broken link', async () => {
    const user = userEvent.setup();
    const run = (id: string, over: object) => ({
      id,
      mode: 'full',
      state: 'running',
      checked: 0,
      total: 42,
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: null,
      result: null,
      ...over,
    });
    const RUN1 = '11111111-1111-4111-8111-111111111111';
    const RUN2 = '22222222-2222-4222-8222-222222222222';
    const { api } = await renderPortal({
      path: '/admin/audit',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/audit', () => json({ events: [], nextCursor: null }))
          .on(
            'POST',
            '/api/admin/audit/verifications',
            () => json(run(RUN1, {}), 202),
            () => json(run(RUN2, { mode: 'incremental', checked: 40 }), 202),
          )
          .on(
            'GET',
            `/api/admin/audit/verifications/${RUN1}`,
            () => json(run(RUN1, { checked: 21 })),
            () => json(run(RUN1, { state: 'done', checked: 42, result: { ok: true, count: 42 } })),
          )
          .on('GET', `/api/admin/audit/verifications/${RUN2}`, () =>
            json(
              run(RUN2, {
                mode: 'incremental',
                state: 'done',
                checked: 42,
                result: { ok: false, brokenAt: 4, id: '5', reason: 'hash_mismatch' },
              }),
            ),
          ),
    });
    await user.click(await screen.findByRole('button', { name: 'Verify the chain' }));
    expect(await screen.findByText('21 of 42 events checked...')).toBeInTheDocument();
    expect(await screen.findByText('42 events checked: none was changed or removed.', {}, { timeout: 3000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Check only new events' }));
    expect(await screen.findByText('The audit log has been tampered with', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(
      screen.getByText(
        'The first broken link is event 5 (number 5 in the chain): its content no longer matches its recorded fingerprint (it was changed). Report this to security.',
      ),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/admin/audit/verifications').map((c) => c.body)).toEqual([{ mode: 'full' }, { mode: 'incremental' }]);
  });
});
