import { z } from 'zod';

/**
 * Reports for Solution Administrators: enrolment coverage over time and four lists
 * (staff without any factor, locked or disabled accounts, stale devices, bypass codes in force),
 * each paged and downloadable as CSV.
 */

/** The factor kinds a report counts: a device kind, or bypass codes in force. */
export const REPORT_FACTOR_KINDS = ['authenticator', 'phone', 'hardware_token', 'passkey', 'bypass_codes'] as const;
export type ReportFactorKind = (typeof REPORT_FACTOR_KINDS)[number];

/** The lists, by the name used in their path (`/api/admin/reports/<name>` and `<name>.csv`). */
export const REPORT_LISTS = ['without-factor', 'locked', 'stale-devices', 'bypass-codes'] as const;
export type ReportListName = (typeof REPORT_LISTS)[number];

/** Days without use after which a device is stale, unless the query says otherwise. */
export const STALE_DEVICE_DAYS = 90;
/** Longest range of the coverage history, in days. */
export const REPORT_HISTORY_MAX_DAYS = 366;
/** Default range of the coverage history, in days (today included). */
export const REPORT_HISTORY_DEFAULT_DAYS = 30;

const day = z.iso.date({ message: 'must be a date (YYYY-MM-DD)' });

export const reportCoverageQuerySchema = z
  .object({ from: day.optional(), to: day.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'must not be after to', path: ['from'] })
  .refine((q) => !q.from || !q.to || Date.parse(q.to) - Date.parse(q.from) <= (REPORT_HISTORY_MAX_DAYS - 1) * 86_400_000, {
    message: `must be at most ${REPORT_HISTORY_MAX_DAYS} days before to`,
    path: ['from'],
  });
export type ReportCoverageQuery = z.infer<typeof reportCoverageQuerySchema>;

/** Staff counted on one day: how many, how many have at least one device, and how many by kind. */
export const coverageFiguresSchema = z.object({
  staff: z.number().int().nonnegative(),
  /** With at least one device (a registered factor; bypass codes are temporary and counted apart). */
  covered: z.number().int().nonnegative(),
  byKind: z.record(z.enum(REPORT_FACTOR_KINDS), z.number().int().nonnegative()),
});
export type CoverageFigures = z.infer<typeof coverageFiguresSchema>;

export const coveragePointSchema = coverageFiguresSchema.extend({ day });
export type CoveragePoint = z.infer<typeof coveragePointSchema>;

/** Which reports the configured MFA provider can give (Duo: only what the directory mirror knows). */
export const reportAvailabilitySchema = z.object({
  coverage: z.boolean(),
  'without-factor': z.boolean(),
  locked: z.boolean(),
  'stale-devices': z.boolean(),
  'bypass-codes': z.boolean(),
});
export type ReportAvailability = z.infer<typeof reportAvailabilitySchema>;

const count = z.number().int().nonnegative();
/**
 * How many rows each list holds, counted at the same moment as the figures (null: a list the provider
 * cannot give). `bypassCodeHolders`: the people holding the bypass codes in force.
 */
export const reportTotalsSchema = z.object({
  'without-factor': count.nullable(),
  locked: count.nullable(),
  'stale-devices': count.nullable(),
  'bypass-codes': count.nullable(),
  bypassCodeHolders: count.nullable(),
});
export type ReportTotals = z.infer<typeof reportTotalsSchema>;

/**
 * Where the figures of one screen come from, all from one moment: `live`, counted for this answer (an
 * organisation small enough to count cheaply), or `snapshot`, the latest hourly snapshot (a larger
 * one; the lists are then read now, and their totals are not given, as they would be of another moment).
 */
export const REPORT_FIGURE_SOURCES = ['live', 'snapshot'] as const;

export const reportCoverageResponseSchema = z.object({
  provider: z.string(),
  available: reportAvailabilitySchema,
  /** Today's figures, as of `takenAt` (null where the provider cannot say). */
  current: coverageFiguresSchema.nullable(),
  /** The moment `current` and `totals` describe (null: nothing counted yet). */
  takenAt: z.string().nullable(),
  source: z.enum(REPORT_FIGURE_SOURCES),
  /** The lists' totals at `takenAt` (null when the figures are a snapshot's). */
  totals: reportTotalsSchema.nullable(),
  from: day,
  to: day,
  /** One point per day of the range that has a snapshot (days before the first snapshot have none). */
  history: z.array(coveragePointSchema),
  /** The first day the portal recorded (null: none yet). */
  historySince: day.nullable(),
});
export type ReportCoverageResponse = z.infer<typeof reportCoverageResponseSchema>;

export const reportListQuerySchema = z.object({
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Stale devices: days without use (default 90). */
  days: z.coerce.number().int().min(1).max(3650).optional(),
});
export type ReportListQuery = z.infer<typeof reportListQuerySchema>;
export const reportCsvQuerySchema = reportListQuerySchema.pick({ days: true });

export const staffWithoutFactorSchema = z.object({
  upn: z.string(),
  displayName: z.string(),
  /** Whether the user has an account at the MFA provider at all. */
  provisioned: z.boolean(),
  status: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
});
export const lockedAccountSchema = z.object({
  upn: z.string(),
  displayName: z.string(),
  status: z.enum(['locked_out', 'disabled']),
  reason: z.string().nullable(),
  /** End of a lockout by policy (null: until unlocked, or disabled). */
  lockedUntil: z.string().nullable(),
  since: z.string().nullable(),
});
export const staleDeviceSchema = z.object({
  upn: z.string(),
  displayName: z.string(),
  deviceId: z.string(),
  kind: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** null: never used since it was added. */
  lastUsedAt: z.string().nullable(),
});
export const bypassCodesInForceSchema = z.object({
  upn: z.string(),
  displayName: z.string(),
  id: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  usesLeft: z.number().int(),
});

const page = <T extends z.ZodTypeAny>(row: T) => z.object({ rows: z.array(row), nextCursor: z.string().nullable() });
export const reportWithoutFactorPageSchema = page(staffWithoutFactorSchema);
export const reportLockedPageSchema = page(lockedAccountSchema);
export const reportStaleDevicesPageSchema = page(staleDeviceSchema);
export const reportBypassCodesPageSchema = page(bypassCodesInForceSchema);
export type StaffWithoutFactor = z.infer<typeof staffWithoutFactorSchema>;
export type LockedAccount = z.infer<typeof lockedAccountSchema>;
export type StaleDevice = z.infer<typeof staleDeviceSchema>;
export type BypassCodesInForce = z.infer<typeof bypassCodesInForceSchema>;
export interface ReportPage<T> {
  rows: T[];
  nextCursor: string | null;
}
