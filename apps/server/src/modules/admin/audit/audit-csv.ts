import type { ChainedAuditEvent } from '../../audit/audit-chain.js';

/** Columns of the audit CSV export, in order. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'occurredAt',
  'actorUpn',
  'actorRoles',
  'targetUpn',
  'action',
  'outcome',
  'reason',
  'requestId',
  'clientAddress',
  'details',
  'hash',
] as const;

/**
 * One CSV cell: always quoted (quotes doubled), and a value a spreadsheet would run as a formula
 * (starting with =, +, -, @, tab or carriage return) is prefixed with a single quote (CSV injection).
 */
export function csvCell(value: string | null | undefined): string {
  let v = value ?? '';
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return `"${v.replaceAll('"', '""')}"`;
}

export function auditCsvRow(e: ChainedAuditEvent): string {
  return [
    e.id,
    new Date(e.occurredAt).toISOString(),
    e.actorUpn,
    e.actorRoles.join(';'),
    e.target,
    e.action,
    e.outcome,
    e.reason,
    e.requestId,
    e.clientAddress,
    e.details ? JSON.stringify(e.details) : null,
    e.hash,
  ]
    .map(csvCell)
    .join(',');
}

export const auditCsvHeader = (): string => AUDIT_CSV_COLUMNS.map(csvCell).join(',');
