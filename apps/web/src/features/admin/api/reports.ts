import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  reportBypassCodesPageSchema,
  reportCoverageResponseSchema,
  reportLockedPageSchema,
  reportStaleDevicesPageSchema,
  reportWithoutFactorPageSchema,
  type BypassCodesInForce,
  type LockedAccount,
  type ReportCoverageResponse,
  type ReportListName,
  type ReportPage,
  type StaffWithoutFactor,
  type StaleDevice,
} from '@mfa-portal/shared';
import { useApiClient, type ApiClient, type ResponseSchema } from '../../../lib/api/api-client';
import { ADMIN_API } from './paths';
import { adminKeys } from './query-keys';

/** How many rows a page of a report's table shows. */
export const REPORT_PAGE_SIZE = 50;

const PAGE_SCHEMAS = {
  'without-factor': reportWithoutFactorPageSchema,
  locked: reportLockedPageSchema,
  'stale-devices': reportStaleDevicesPageSchema,
  'bypass-codes': reportBypassCodesPageSchema,
} as const;
interface ReportRows {
  'without-factor': StaffWithoutFactor;
  locked: LockedAccount;
  'stale-devices': StaleDevice;
  'bypass-codes': BypassCodesInForce;
}
export type ReportRow<N extends ReportListName> = ReportRows[N];
export type ReportPageOf<N extends ReportListName> = ReportPage<ReportRows[N]>;

/** GET /api/admin/reports/coverage: today's figures and one point a day of the range. */
export function getCoverage(api: ApiClient, range: { from: string; to: string }, signal?: AbortSignal): Promise<ReportCoverageResponse> {
  return api.request(ADMIN_API.reportsCoverage, { query: range, signal, schema: reportCoverageResponseSchema });
}

export function useCoverage(range: { from: string; to: string }) {
  const api = useApiClient();
  return useQuery({
    queryKey: adminKeys.reportsCoverage(range.from, range.to),
    queryFn: ({ signal }) => getCoverage(api, range, signal),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/reports/<name>: one page of a list (cursor: from the page before). */
export function getReportPage<N extends ReportListName>(
  api: ApiClient,
  name: N,
  q: { cursor?: string; days?: number },
  signal?: AbortSignal,
): Promise<ReportPageOf<N>> {
  return api.request(ADMIN_API.reportList(name), {
    query: { cursor: q.cursor, days: q.days, limit: REPORT_PAGE_SIZE },
    signal,
    schema: PAGE_SCHEMAS[name] as unknown as ResponseSchema<ReportPageOf<N>>,
  });
}

export function useReportPage<N extends ReportListName>(name: N, q: { cursor?: string; days?: number }, enabled = true) {
  const api = useApiClient();
  return useQuery({
    queryKey: adminKeys.reportList(name, q.cursor, q.days),
    queryFn: ({ signal }) => getReportPage(api, name, q, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET /api/admin/reports/<name>.csv: the whole list as CSV text (the browser then saves it). */
export function useExportReportCsv() {
  const api = useApiClient();
  return useMutation({
    mutationFn: ({ name, days }: { name: ReportListName; days?: number }) => api.text(ADMIN_API.reportCsv(name), { query: { days } }),
  });
}
