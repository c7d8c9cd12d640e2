import '../../lib/test/setup';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReportCoverageResponse } from '@mfa-portal/shared';
import { json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile } from './test-fixtures';

// recharts measures its container with ResizeObserver, which jsdom lacks: the chart itself is drawn in
// the browser journey; here the page's text alternative of it is what is checked.
vi.mock('./components/CoverageChart', () => ({ default: () => <svg data-testid="coverage-chart" /> }));

beforeAll(async () => {
  await import('./AdminArea');
  await import('./routes/ReportsPage');
});

const ALL = { coverage: true, 'without-factor': true, locked: true, 'stale-devices': true, 'bypass-codes': true };
const figures = (covered: number) => ({
  staff: 8,
  covered,
  byKind: { authenticator: 2, phone: 1, hardware_token: 1, passkey: 1, bypass_codes: 1 },
});
const coverage = (over: Partial<ReportCoverageResponse> = {}): ReportCoverageResponse => ({
  provider: 'builtin',
  available: ALL,
  current: figures(4),
  takenAt: '2026-05-02T10:00:00.000Z',
  source: 'live',
  totals: { 'without-factor': 3, locked: 0, 'stale-devices': 0, 'bypass-codes': 0, bypassCodeHolders: 0 },
  from: '2026-04-03',
  to: '2026-05-02',
  history: [
    { day: '2026-05-01', ...figures(2) },
    { day: '2026-05-02', ...figures(4) },
  ],
  historySince: '2026-05-01',
  ...over,
});
const empty = () => json({ rows: [], nextCursor: null });
const person = (upn: string) => ({ upn, displayName: `Name ${upn}`, provisioned: true, status: 'active', lastSeenAt: null });

describe('reports', () => {
  it('are for Solution Administrators only', async () => {
    const { api } = await renderPortal({ path: '/admin/reports', profile: adminProfile('helpdesk') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Not available for your role' })).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path.startsWith('/api/admin/reports'))).toEqual([]);
    expect(screen.queryByRole('link', { name: 'Reports' })).not.toBeInTheDocument();
  });

  it('show coverage with a chart described in words and as a table, and page through a list', async () => {
    const user = userEvent.setup();
    const { api } = await renderPortal({
      path: '/admin/reports',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/reports/coverage', () => json(coverage()))
          .on('GET', '/api/admin/reports/without-factor', (call) =>
            call.query.get('cursor') === 'u2@example.com'
              ? json({ rows: [person('u3@example.com')], nextCursor: null })
              : json({ rows: [person('u1@example.com'), person('u2@example.com')], nextCursor: 'u2@example.com' }),
          )
          .on('GET', '/api/admin/reports/locked', empty)
          .on('GET', '/api/admin/reports/stale-devices', empty)
          .on('GET', '/api/admin/reports/bypass-codes', empty),
    });
    expect(await screen.findByText('4 of 8 staff (50%) have at least one device.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reports' })).toHaveAttribute('aria-current', 'page');
    const chart = screen.getByRole('img', { name: /from May 1, 2026 to May 2, 2026: 25.0% at the start and 50.0% at the end/ });
    expect(chart).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Share of staff by kind of device, day by day' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('May 2, 2026' + '50.0%' + '25.0%');
    expect(screen.getByText('Authenticator app', { selector: 'dt' }).nextSibling).toHaveTextContent('2 people (25%)');

    const list = await screen.findByRole('table', { name: 'Staff without a device, by sign-in name' });
    expect(within(list).getAllByRole('row')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Page 2')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Name u3@example.com (u3@example.com)' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/admin/reports/without-factor').at(-1)?.query.get('cursor')).toBe('u2@example.com');
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByRole('link', { name: 'Name u1@example.com (u1@example.com)' })).toBeInTheDocument();

    expect(await screen.findByText('No account is locked or disabled.')).toBeInTheDocument();
    expect(await screen.findByText('No bypass code is in force.')).toBeInTheDocument();
    // The range of the chart.
    await user.selectOptions(screen.getByLabelText('Period of the chart'), '7');
    await vi.waitFor(() => {
      const q = api.callsTo('GET', '/api/admin/reports/coverage').at(-1)!.query;
      expect((Date.parse(q.get('to')!) - Date.parse(q.get('from')!)) / 86_400_000).toBe(6);
    });
    // Many steps on a shared, slow machine.
  }, 20_000);

  it('give the figures and the totals of the lists of one moment, and say which', async () => {
    const { api } = await renderPortal({
      path: '/admin/reports',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/reports/coverage', () =>
            json(coverage({ totals: { 'without-factor': 4, locked: 0, 'stale-devices': 2, 'bypass-codes': 6, bypassCodeHolders: 3 } })),
          )
          .on('GET', '/api/admin/reports/without-factor', () =>
            json({ rows: ['u1', 'u2', 'u3', 'u4'].map((u) => person(`${u}@example.com`)), nextCursor: null }),
          )
          .on('GET', '/api/admin/reports/locked', empty)
          .on('GET', '/api/admin/reports/stale-devices', empty)
          .on('GET', '/api/admin/reports/bypass-codes', empty),
    });
    expect(await screen.findByText('4 of 8 staff (50%) have at least one device.')).toBeInTheDocument();
    expect(screen.getByTestId('coverage-moment')).toHaveTextContent(
      /^Counted at May 2, 2026, .+, when you opened this page, together with the totals of the lists below\.$/,
    );
    const section = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('section')!;
    expect(within(section('Staff without a device')).getByTestId('report-without-factor-total')).toHaveTextContent('4 people.');
    expect(within(section('Bypass codes in force')).getByTestId('report-bypass-codes-total')).toHaveTextContent(
      '6 codes, held by 3 people.',
    );
    expect(within(section('Devices not used for 90 days')).getByTestId('report-stale-devices-total')).toHaveTextContent('2 devices.');
    // None: the list says so itself, with no "0 accounts." above it.
    expect(within(section('Locked or disabled accounts')).queryByTestId('report-locked-total')).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/api/admin/reports/coverage')).toHaveLength(1);
  });

  it('label figures from the hourly snapshot with their time, and give no list totals of another moment', async () => {
    await renderPortal({
      path: '/admin/reports',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/reports/coverage', () => json(coverage({ source: 'snapshot', totals: null })))
          .on('GET', '/api/admin/reports/without-factor', () => json({ rows: [person('u1@example.com')], nextCursor: null }))
          .on('GET', '/api/admin/reports/locked', empty)
          .on('GET', '/api/admin/reports/stale-devices', empty)
          .on('GET', '/api/admin/reports/bypass-codes', empty),
    });
    expect(await screen.findByText('4 of 8 staff (50%) have at least one device.')).toBeInTheDocument();
    expect(screen.getByTestId('coverage-moment')).toHaveTextContent(
      /^Figures as of May 2, 2026, .+: they are recorded every hour\. The lists below are read now, so they may have changed since\.$/,
    );
    expect(await screen.findByRole('table', { name: 'Staff without a device, by sign-in name' })).toBeInTheDocument();
    expect(screen.queryByTestId('report-without-factor-total')).not.toBeInTheDocument();
  });

  it('download a list as a CSV file', async () => {
    const user = userEvent.setup();
    const csv = '"upn","displayName"\r\n"u1@example.com","Name"\r\n';
    const { api } = await renderPortal({
      path: '/admin/reports',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/reports/coverage', () => json(coverage()))
          .on('GET', '/api/admin/reports/without-factor', () => json({ rows: [person('u1@example.com')], nextCursor: null }))
          .on(
            'GET',
            '/api/admin/reports/without-factor.csv',
            () => new Response(csv, { status: 200, headers: { 'content-type': 'text/csv' } }),
          )
          .on('GET', '/api/admin/reports/locked', empty)
          .on('GET', '/api/admin/reports/stale-devices', empty)
          .on('GET', '/api/admin/reports/bypass-codes', empty),
    });
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    await user.click(await screen.findByRole('button', { name: 'Download “Staff without a device” as CSV' }, { timeout: 5000 }));
    await vi.waitFor(() => expect(names).toEqual([expect.stringMatching(/^staff-without-a-device-\d{4}-\d{2}-\d{2}\.csv$/)]));
    expect(api.callsTo('GET', '/api/admin/reports/without-factor.csv')).toHaveLength(1);
  }, 20_000);

  it('say plainly what the MFA service does not let the portal report (Duo)', async () => {
    const limited = { coverage: false, 'without-factor': false, locked: true, 'stale-devices': false, 'bypass-codes': false };
    const { api } = await renderPortal({
      path: '/admin/reports',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/reports/coverage', () =>
            json(coverage({ provider: 'duo', available: limited, current: null, history: [] })),
          )
          .on('GET', '/api/admin/reports/locked', () =>
            json({
              rows: [{ upn: 'x@example.com', displayName: 'X', status: 'disabled', reason: null, lockedUntil: null, since: null }],
              nextCursor: null,
            }),
          ),
    });
    expect(await screen.findByText('Some reports are not available')).toBeInTheDocument();
    expect(screen.getAllByText(/Not available with your organisation’s MFA service/)).toHaveLength(4);
    expect(await screen.findByRole('table', { name: 'Locked or disabled accounts, by sign-in name' })).toHaveTextContent('Disabled');
    expect(api.calls.map((c) => c.path).filter((p) => p.startsWith('/api/admin/reports/'))).not.toContain(
      '/api/admin/reports/stale-devices',
    );
  });
});

describe('the security e-mail outbox', () => {
  it('says in plain words when e-mail is not set up, never the name of a setting', async () => {
    await renderPortal({
      path: '/admin/reports',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/reports/coverage', () => json(coverage()))
          .on('GET', '/api/admin/reports/without-factor', empty)
          .on('GET', '/api/admin/reports/locked', empty)
          .on('GET', '/api/admin/reports/stale-devices', empty)
          .on('GET', '/api/admin/reports/bypass-codes', empty)
          .on('GET', '/api/admin/notifications', () => json({ enabled: false, counts: { pending: 0, sent: 0, failed: 0 }, messages: [] })),
    });
    const section = await screen.findByRole('region', { name: 'Security e-mail' }, { timeout: 5000 });
    expect(await within(section).findByText(/E-mail is not set up/)).toHaveTextContent('The operations guide says how to set it up.');
    expect(section.textContent).not.toMatch(/[A-Z]+_[A-Z_]+/);
  });

  it('says how many messages wait, were sent or failed, and lists the latest without their text', async () => {
    await renderPortal({
      path: '/admin/reports',
      profile: adminProfile('solution_admin'),
      api: (a) =>
        a
          .on('GET', '/api/admin/reports/coverage', () => json(coverage()))
          .on('GET', '/api/admin/reports/without-factor', empty)
          .on('GET', '/api/admin/reports/locked', empty)
          .on('GET', '/api/admin/reports/stale-devices', empty)
          .on('GET', '/api/admin/reports/bypass-codes', empty)
          .on('GET', '/api/admin/notifications', () =>
            json({
              enabled: true,
              counts: { pending: 1, sent: 3, failed: 0 },
              messages: [
                {
                  id: '2',
                  kind: 'security_report',
                  targetUpn: 'bob@example.com',
                  toSecurityContact: true,
                  state: 'pending',
                  attempts: 2,
                  createdAt: '2026-05-02T10:00:00.000Z',
                  nextAttemptAt: '2026-05-02T10:02:00.000Z',
                  sentAt: null,
                  lastError: 'connection refused',
                },
                {
                  id: '1',
                  kind: 'factor_added',
                  targetUpn: 'bob@example.com',
                  toSecurityContact: false,
                  state: 'sent',
                  attempts: 1,
                  createdAt: '2026-05-02T09:00:00.000Z',
                  nextAttemptAt: null,
                  sentAt: '2026-05-02T09:00:01.000Z',
                  lastError: null,
                },
              ],
            }),
          ),
    });
    const section = await screen.findByRole('region', { name: 'Security e-mail' }, { timeout: 5000 });
    expect(await within(section).findByText(/Staff are told by e-mail/)).toBeInTheDocument();
    expect(within(section).getByText('Waiting to be sent').nextSibling).toHaveTextContent('1');
    expect(within(section).getByText('Sent').nextSibling).toHaveTextContent('3');
    const rows = within(within(section).getByRole('table')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent("Report: “This wasn't me”");
    expect(rows[1]).toHaveTextContent('The security contact');
    expect(rows[1]).toHaveTextContent(/Waiting: next try .* \(tried 2 times\)/);
    expect(rows[1]).toHaveTextContent('Last error: connection refused');
    expect(rows[2]).toHaveTextContent('A device was added');
    expect(rows[2]).toHaveTextContent('bob@example.com');
  }, 20_000);
});
