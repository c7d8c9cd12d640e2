import { describe, expect, it } from 'vitest';
import { auditCsvHeader, auditCsvRow, csvCell } from './audit-csv.js';

describe('audit CSV', () => {
  it('quotes every cell and doubles quotes', () => {
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell(null)).toBe('""');
  });

  it.each(['=HYPERLINK("x")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx'])('neutralises a formula: %j', (value) => {
    expect(csvCell(value).startsWith(`"'`)).toBe(true);
  });

  it('writes one row per event in the header order, details as JSON', () => {
    const row = auditCsvRow({
      id: '7',
      occurredAt: '2030-01-01T00:00:00.000Z',
      actorUpn: 'helpdesk@example.com',
      actorRoles: ['Helpdesk Administrator'],
      target: '=evil@example.com',
      action: 'admin.user.unlock',
      outcome: 'success',
      reason: null,
      requestId: 'r1',
      clientAddress: '127.0.0.1',
      details: { ticket: 'INC-1' },
      prevHash: '0'.repeat(64),
      hash: 'a'.repeat(64),
    });
    expect(auditCsvHeader().split(',')).toHaveLength(12);
    expect(row).toBe(
      `"7","2030-01-01T00:00:00.000Z","helpdesk@example.com","Helpdesk Administrator","'=evil@example.com","admin.user.unlock","success","","r1","127.0.0.1","{""ticket"":""INC-1""}","${'a'.repeat(64)}"`,
    );
  });
});
