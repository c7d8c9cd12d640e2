import '../../lib/test/setup';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { AuditStreamState } from '@mfa-portal/shared';
import { json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile } from './test-fixtures';

// The chart needs ResizeObserver, which jsdom lacks; this file looks at the SIEM section only.
vi.mock('./components/CoverageChart', () => ({ default: () => <svg data-testid="coverage-chart" /> }));

beforeAll(async () => {
  await import('./AdminArea');
  await import('./routes/ReportsPage');
});

const off = (stream: AuditStreamState['stream']): AuditStreamState => ({
  stream,
  enabled: false,
  destination: null,
  backlog: 0,
  oldestPendingAt: null,
  lastDeliveredAt: null,
  lastDeliveredEventId: null,
  failures: 0,
  lastError: null,
  lastErrorAt: null,
  nextAttemptAt: null,
});

async function renderWith(streams: AuditStreamState[]) {
  return renderPortal({
    path: '/admin/reports',
    profile: adminProfile('solution_admin'),
    api: (a) => a.on('GET', '/api/admin/reports/audit-streams', () => json({ streams })),
  });
}

describe('audit to a SIEM on the reports page', () => {
  it('shows, per stream, whether it is on and where to, what waits, the last delivery, the last error and the next attempt', async () => {
    const { api } = await renderWith([
      {
        stream: 'syslog',
        enabled: true,
        destination: 'siem.example.org:6514',
        backlog: 3,
        oldestPendingAt: '2026-05-02T10:00:00.000Z',
        lastDeliveredAt: '2026-05-02T09:59:00.000Z',
        lastDeliveredEventId: '41',
        failures: 2,
        lastError: 'ECONNREFUSED: connect ECONNREFUSED 192.0.2.1:6514',
        lastErrorAt: '2026-05-02T10:00:05.000Z',
        nextAttemptAt: '2026-05-02T10:00:07.000Z',
      },
      off('webhook'),
    ]);
    const section = await screen.findByRole('region', { name: 'Audit to a SIEM' }, { timeout: 5000 });
    expect(await within(section).findByText(/Every audit event is also sent/)).toBeInTheDocument();
    const rows = within(within(section).getByRole('table', { name: 'Streams of the audit trail to the SIEM' })).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Syslog over TLS');
    expect(rows[1]).toHaveTextContent('On, to siem.example.org:6514');
    expect(rows[1]).toHaveTextContent(/3 events, the oldest waiting since May 2, 2026/);
    expect(rows[1]).toHaveTextContent(/\(event 41\)/);
    expect(rows[1]).toHaveTextContent('ECONNREFUSED: connect ECONNREFUSED 192.0.2.1:6514');
    expect(rows[1]).toHaveTextContent(/after 2 failed attempts in a row/);
    expect(rows[2]).toHaveTextContent('Signed webhook');
    expect(rows[2]).toHaveTextContent('Off');
    expect(rows[2]).toHaveTextContent('Nothing waiting');
    expect(rows[2]).toHaveTextContent('Never');
    expect(api.callsTo('GET', '/api/admin/reports/audit-streams')).toHaveLength(1);
  }, 20_000);

  it('says plainly when nothing is sent to a SIEM', async () => {
    await renderWith([off('syslog'), off('webhook')]);
    const section = await screen.findByRole('region', { name: 'Audit to a SIEM' }, { timeout: 5000 });
    expect(await within(section).findByText(/Audit to a SIEM is switched off/)).toBeInTheDocument();
  }, 20_000);
});
