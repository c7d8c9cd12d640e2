import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCoverageResponseSchema, reportLockedPageSchema, reportWithoutFactorPageSchema } from '@mfa-portal/shared';
import { meTestApp, type MeTestApp } from '../../../../test/me-api.js';
import { ADMIN, BOB, callAs, HELPDESK } from '../../../../test/admin-api.js';
import { reportsRepository } from './reports.repository.js';
import { createReportsService, dayOf } from './reports.service.js';

/**
 * Reports (issue 19) against a known organisation: eight staff with a known mix of devices, codes and
 * statuses (the demo staff removed first), so every figure and list can be counted by hand.
 */

const DAY = 86_400_000;
const now = new Date();
const ago = (days: number) => new Date(now.getTime() - days * DAY);

let m: MeTestApp;
const ids: Record<string, string> = {};

async function addStaff(upn: string, mfa: { status?: 'active' | 'disabled' | 'locked_out'; lockedUntil?: Date | null } | null) {
  await m.db
    .insertInto('directory_user')
    .values({ upn, display_name: `Name ${upn}`, email: upn, roles: [] })
    .execute();
  if (!mfa) return;
  const row = await m.db
    .insertInto('mfa_user')
    .values({
      username: upn,
      email: upn,
      real_name: upn,
      status: mfa.status ?? 'active',
      status_reason: mfa.status && mfa.status !== 'active' ? 'Set by the test' : null,
      locked_until: mfa.lockedUntil ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  ids[upn] = row.id;
}
async function addDevice(
  upn: string,
  kind: 'authenticator' | 'phone' | 'hardware_token' | 'security_key',
  createdAt: Date,
  lastUsedAt: Date | null,
) {
  await m.db
    .insertInto('mfa_device')
    .values({ user_id: ids[upn]!, kind, name: `${kind} of ${upn}`, created_at: createdAt, last_used_at: lastUsedAt })
    .execute();
}
async function addCode(upn: string, code: { uses: number; expires: Date; revoked?: boolean }, n: number) {
  await m.db
    .insertInto('mfa_bypass_code')
    .values({
      user_id: ids[upn]!,
      code_hash: `hash-${upn}-${n}`,
      uses_left: code.uses,
      reuse_count: 1,
      expires_at: code.expires,
      created_by: 'helpdesk@example.com',
      revoked_at: code.revoked ? ago(0.1) : null,
    })
    .execute();
}

beforeAll(async () => {
  m = await meTestApp();
  // A known organisation instead of the demo staff.
  await m.db.deleteFrom('mfa_webauthn_credential').execute();
  await m.db.deleteFrom('mfa_device').execute();
  await m.db.deleteFrom('mfa_hardware_token').execute();
  await m.db.deleteFrom('mfa_totp_enrolment').execute();
  await m.db.deleteFrom('mfa_user').execute();
  await m.db.deleteFrom('directory_user').execute();
  await m.db.deleteFrom('report_snapshot').execute();

  await addStaff('u1@example.com', {});
  await addDevice('u1@example.com', 'authenticator', ago(300), ago(1));
  await addDevice('u1@example.com', 'hardware_token', ago(300), ago(100));
  await addStaff('u2@example.com', {});
  await addDevice('u2@example.com', 'phone', ago(30), ago(1));
  await addStaff('u3@example.com', {});
  await addDevice('u3@example.com', 'security_key', ago(200), null);
  await addStaff('u4@example.com', {});
  await addCode('u4@example.com', { uses: 1, expires: new Date(now.getTime() + DAY) }, 1);
  await addCode('u4@example.com', { uses: 1, expires: new Date(now.getTime() + DAY), revoked: true }, 2);
  await addCode('u4@example.com', { uses: 1, expires: ago(1) }, 3);
  await addCode('u4@example.com', { uses: 0, expires: new Date(now.getTime() + DAY) }, 4);
  await addStaff('u5@example.com', { status: 'disabled' });
  await addStaff('u6@example.com', null);
  // A lockout by policy that has ended: not locked any more.
  await addStaff('u7@example.com', { status: 'locked_out', lockedUntil: ago(0.01) });
  await addDevice('u7@example.com', 'authenticator', ago(0), null);
  // Locked by an administrator (no end).
  await addStaff('u8@example.com', { status: 'locked_out' });
});
afterAll(async () => m?.close());

describe('GET /api/admin/reports/coverage', () => {
  it("counts staff, those with a device and each kind, in today's snapshot", async () => {
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/reports/coverage');
    expect(res.statusCode, res.body).toBe(200);
    const body = reportCoverageResponseSchema.parse(res.json());
    expect(body.provider).toBe('builtin');
    expect(body.available).toEqual({ coverage: true, 'without-factor': true, locked: true, 'stale-devices': true, 'bypass-codes': true });
    expect(body.current).toEqual({
      staff: 8,
      covered: 4,
      byKind: { authenticator: 2, phone: 1, hardware_token: 1, passkey: 1, bypass_codes: 1 },
    });
    expect(body.to).toBe(dayOf(now));
    expect(body.history.map((h) => h.day)).toEqual([dayOf(now)]);
    expect(body.historySince).toBe(dayOf(now));
  });

  it('gives one point a day of the range from the snapshots, none before the first', async () => {
    const service = createReportsService({ repo: reportsRepository(m.db), provider: 'builtin' });
    await service.takeSnapshot(ago(2));
    await service.takeSnapshot(ago(5));
    const from = dayOf(ago(3));
    const res = await callAs(m, ADMIN, 'GET', `/api/admin/reports/coverage?from=${from}&to=${dayOf(now)}`);
    const body = reportCoverageResponseSchema.parse(res.json());
    expect(body.history.map((h) => h.day)).toEqual([dayOf(ago(2)), dayOf(now)]);
    expect(body.history[0]).toMatchObject({ staff: 8, covered: 4 });
    expect(body.historySince).toBe(dayOf(ago(5)));
  });

  it.each([
    ['from=2026-13-01', 'from'],
    ['from=2026-02-01&to=2026-01-01', 'from'],
    ['from=2024-01-01&to=2026-01-01', 'from'],
  ])('refuses %s with 400 naming the field', async (q, field) => {
    const res = await callAs(m, ADMIN, 'GET', `/api/admin/reports/coverage?${q}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'request.invalid', details: { field } });
  });
});

describe('the lists', () => {
  it('lists staff without any device, provisioned or not, a page at a time', async () => {
    const first = reportWithoutFactorPageSchema.parse((await callAs(m, ADMIN, 'GET', '/api/admin/reports/without-factor?limit=3')).json());
    expect(first.rows.map((r) => r.upn)).toEqual(['u4@example.com', 'u5@example.com', 'u6@example.com']);
    expect(first.rows.find((r) => r.upn === 'u6@example.com')).toMatchObject({ provisioned: false, status: null });
    expect(first.nextCursor).toBe('u6@example.com');
    const next = reportWithoutFactorPageSchema.parse(
      (await callAs(m, ADMIN, 'GET', `/api/admin/reports/without-factor?limit=3&cursor=${first.nextCursor}`)).json(),
    );
    expect(next).toEqual({
      rows: [expect.objectContaining({ upn: 'u8@example.com', provisioned: true, status: 'locked_out' })],
      nextCursor: null,
    });
  });

  it('lists disabled accounts and lockouts in force, not one that has ended', async () => {
    const page = reportLockedPageSchema.parse((await callAs(m, ADMIN, 'GET', '/api/admin/reports/locked')).json());
    expect(page.rows.map((r) => [r.upn, r.status])).toEqual([
      ['u5@example.com', 'disabled'],
      ['u8@example.com', 'locked_out'],
    ]);
    expect(page.rows[1]).toMatchObject({ lockedUntil: null, reason: 'Set by the test', displayName: 'Name u8@example.com' });
  });

  it('lists devices unused for 90 days (never used: added before), the longest unused first; `days` changes the limit', async () => {
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/reports/stale-devices?limit=1');
    const first = res.json() as { rows: { upn: string; kind: string; lastUsedAt: string | null }[]; nextCursor: string };
    expect(first.rows).toEqual([expect.objectContaining({ upn: 'u3@example.com', kind: 'security_key', lastUsedAt: null })]);
    const next = (
      await callAs(m, ADMIN, 'GET', `/api/admin/reports/stale-devices?limit=1&cursor=${first.nextCursor}`)
    ).json() as typeof first;
    expect(next.rows.map((r) => [r.upn, r.kind])).toEqual([['u1@example.com', 'hardware_token']]);
    expect(next.nextCursor).toBeNull();
    const longer = (await callAs(m, ADMIN, 'GET', '/api/admin/reports/stale-devices?days=150')).json() as typeof first;
    expect(longer.rows.map((r) => r.upn)).toEqual(['u3@example.com']);
  });

  it('lists bypass codes in force as metadata, never a code or its hash', async () => {
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/reports/bypass-codes');
    const body = res.json() as { rows: Record<string, unknown>[] };
    expect(body.rows).toEqual([expect.objectContaining({ upn: 'u4@example.com', usesLeft: 1, createdBy: 'helpdesk@example.com' })]);
    expect(res.body).not.toContain('hash-');
    expect(Object.keys(body.rows[0]!).sort()).toEqual(['createdAt', 'createdBy', 'displayName', 'expiresAt', 'id', 'upn', 'usesLeft']);
  });

  it('refuses a cursor it did not give with 400', async () => {
    for (const path of ['stale-devices?cursor=bm9wZQ', 'bypass-codes?cursor=x', 'locked?cursor=%01']) {
      const res = await callAs(m, ADMIN, 'GET', `/api/admin/reports/${path}`);
      expect(res.statusCode, path).toBe(400);
      expect(res.json()).toMatchObject({ code: 'request.invalid', details: { field: 'cursor' } });
    }
  });
});

describe('CSV downloads', () => {
  it.each([
    ['without-factor', 4, '"upn","displayName","provisioned","status","lastSeenAt"'],
    ['locked', 2, '"upn","displayName","status","reason","lockedUntil","since"'],
    ['stale-devices', 2, '"upn","displayName","deviceId","kind","name","createdAt","lastUsedAt"'],
    ['bypass-codes', 1, '"upn","displayName","id","createdBy","createdAt","expiresAt","usesLeft"'],
  ])('streams every row of %s with a header', async (name, rows, header) => {
    const res = await callAs(m, ADMIN, 'GET', `/api/admin/reports/${name}.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".+\.csv"$/);
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(header);
    expect(lines).toHaveLength(rows + 1);
    expect(res.body).not.toContain('hash-');
  });

  it('holds every row when there are more than a page', async () => {
    for (let i = 0; i < 1005; i++)
      await m.db
        .insertInto('directory_user')
        .values({ upn: `bulk${String(i).padStart(4, '0')}@example.com` })
        .execute();
    const lines = (await callAs(m, ADMIN, 'GET', '/api/admin/reports/without-factor.csv')).body.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(1 + 4 + 1005);
    expect(new Set(lines).size).toBe(lines.length);
    await m.db.deleteFrom('directory_user').where('upn', 'like', 'bulk%').execute();
  });
});

describe('who may read them', () => {
  it.each([
    ['staff', BOB],
    ['a Helpdesk Administrator', HELPDESK],
  ])('refuses %s with 403, audited', async (_who, caller) => {
    for (const path of ['coverage', 'locked', 'locked.csv']) {
      const res = await callAs(m, caller, 'GET', `/api/admin/reports/${path}`);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('u5@example.com');
    }
    const denial = await m.db
      .selectFrom('audit_event')
      .selectAll()
      .where('actor_upn', '=', caller.upn)
      .where('action', '=', 'admin.reports.read')
      .executeTakeFirst();
    expect(denial).toMatchObject({ outcome: 'failure', reason: 'auth.forbidden' });
  });
});

describe('with an MFA provider whose devices the portal does not hold (Duo)', () => {
  it('gives the staff count and the locked or disabled accounts from the directory, and says the rest is not available', async () => {
    await m.db.updateTable('directory_user').set({ mfa_status: 'locked_out' }).where('upn', '=', 'u2@example.com').execute();
    const duo = createReportsService({ repo: reportsRepository(m.db), provider: 'duo', now: () => new Date(now.getTime() + 400 * DAY) });
    expect(duo.available).toEqual({
      coverage: false,
      'without-factor': false,
      locked: true,
      'stale-devices': false,
      'bypass-codes': false,
    });
    const coverage = await duo.coverage({});
    expect(coverage).toMatchObject({ provider: 'duo', current: null, history: [], source: 'live' });
    expect(coverage.totals).toEqual({
      'without-factor': null,
      locked: 1,
      'stale-devices': null,
      'bypass-codes': null,
      bypassCodeHolders: null,
    });
    const page = await duo.list('locked', { limit: 10 });
    expect(page.rows).toEqual([expect.objectContaining({ upn: 'u2@example.com', status: 'locked_out' })]);
    await expect(duo.list('stale-devices', { limit: 10 })).rejects.toMatchObject({
      code: 'mfa.not_supported_by_provider',
      details: { report: 'stale-devices' },
    });
    expect(() => duo.assertAvailable('bypass-codes')).toThrow();
  });
});

describe('figures of one moment', () => {
  /** Every row of a list, through its pages (as the screen and the CSV read it). */
  async function rowsOf(name: string): Promise<Array<{ upn: string }>> {
    const rows: Array<{ upn: string }> = [];
    let cursor: string | null = null;
    do {
      const res = await callAs(
        m,
        ADMIN,
        'GET',
        `/api/admin/reports/${name}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      const page = res.json() as { rows: Array<{ upn: string }>; nextCursor: string | null };
      rows.push(...page.rows);
      cursor = page.nextCursor;
    } while (cursor);
    return rows;
  }

  async function expectFiguresToAgreeWithTheLists() {
    const body = reportCoverageResponseSchema.parse((await callAs(m, ADMIN, 'GET', '/api/admin/reports/coverage')).json());
    expect(body.source).toBe('live');
    const { current, totals } = body;
    const withoutFactor = await rowsOf('without-factor');
    const codes = await rowsOf('bypass-codes');
    expect(totals).toEqual({
      'without-factor': withoutFactor.length,
      locked: (await rowsOf('locked')).length,
      'stale-devices': (await rowsOf('stale-devices')).length,
      'bypass-codes': codes.length,
      bypassCodeHolders: new Set(codes.map((r) => r.upn)).size,
    });
    expect(current!.staff - current!.covered).toBe(withoutFactor.length);
    expect(current!.byKind.bypass_codes).toBe(new Set(codes.map((r) => r.upn)).size);
    // Today's point of the chart is the same moment as the figures above it.
    expect(body.history.at(-1)).toEqual({ day: dayOf(now), ...current });
    return body;
  }

  it('counts the figures and the lists together, now, so they agree', async () => {
    const before = await expectFiguresToAgreeWithTheLists();
    expect(before.totals).toMatchObject({ 'without-factor': 4, 'bypass-codes': 1, bypassCodeHolders: 1 });
    expect(Date.now() - Date.parse(before.takenAt!)).toBeLessThan(60_000);
  });

  it('follows a change at once, not at the next hourly snapshot', async () => {
    // Today's snapshot was taken by the first read of the day (covered: 4); the changes below come after it.
    await addCode('u1@example.com', { uses: 2, expires: new Date(now.getTime() + DAY) }, 10);
    await addCode('u1@example.com', { uses: 1, expires: new Date(now.getTime() + DAY) }, 11);
    await addDevice('u4@example.com', 'phone', now, now);
    try {
      const after = await expectFiguresToAgreeWithTheLists();
      expect(after.totals).toMatchObject({ 'without-factor': 3, 'bypass-codes': 3, bypassCodeHolders: 2 });
      expect(after.current).toMatchObject({ covered: 5, byKind: expect.objectContaining({ bypass_codes: 2, phone: 2 }) });
    } finally {
      await m.db.deleteFrom('mfa_bypass_code').where('code_hash', 'in', ['hash-u1@example.com-10', 'hash-u1@example.com-11']).execute();
      await m.db.deleteFrom('mfa_device').where('user_id', '=', ids['u4@example.com']!).execute();
    }
  });

  it('shows the snapshot alone, with its time, for an organisation too large to count on every view', async () => {
    // A day of its own (no hourly job writes it), for a service that counts live only up to 3 staff.
    const at = new Date(now.getTime() + 800 * DAY);
    const large = createReportsService({ repo: reportsRepository(m.db), provider: 'builtin', liveMaxStaff: 3, now: () => at });
    const first = await large.coverage({});
    expect(first).toMatchObject({ source: 'snapshot', totals: null, takenAt: at.toISOString() });
    await addCode('u1@example.com', { uses: 1, expires: new Date(at.getTime() + DAY) }, 12);
    try {
      // The snapshot's figures, not the change made since: the screen says when they are from.
      const again = await large.coverage({});
      expect(again).toMatchObject({ source: 'snapshot', totals: null, takenAt: at.toISOString() });
      expect(again.current).toEqual(first.current);
      expect(again.history.at(-1)).toEqual({ day: dayOf(at), ...first.current });
    } finally {
      await m.db.deleteFrom('mfa_bypass_code').where('code_hash', '=', 'hash-u1@example.com-12').execute();
    }
  });
});
