import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import type { ReportListName } from '@mfa-portal/shared';
import { downloadText } from '../../../lib/ui/download';
import { Loading } from '../../../lib/ui/Loading';
import { useExportReportCsv, useReportPage, type ReportRow } from '../api/reports';
import { AdminErrorAlert } from './AdminErrorAlert';
import { ReportTable, type ReportColumn } from './ReportTable';

/**
 * One list of the reports screen: its heading and description, a page of the table (previous and
 * next pages through the server's cursors), its total when known, an empty state, and the whole list
 * as a CSV file.
 * Where the MFA provider cannot give the list, it says so instead.
 */
export function ReportListSection<N extends ReportListName>({
  name,
  columns,
  available,
  rowKey,
  total = null,
}: {
  name: N;
  columns: ReportColumn<ReportRow<N>>[];
  available: boolean;
  rowKey: (row: ReportRow<N>) => string;
  /** How many rows the list holds, in words, counted with the figures above (null: not known at that moment). */
  total?: string | null;
}) {
  const { t } = useTranslation('admin');
  const key = name.replaceAll('-', '_');
  // cursors[i]: where page i + 1 starts (undefined: the first page).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useReportPage(name, { ...(cursor ? { cursor } : {}) }, available);
  const exportCsv = useExportReportCsv();
  const headingId = `report-${name}-heading`;
  const download = async () => {
    try {
      const csv = await exportCsv.mutateAsync({ name });
      downloadText(`${t(`reports.${key}.file_name`)}-${new Date().toISOString().slice(0, 10)}.csv`, csv, 'text/csv;charset=utf-8');
    } catch {
      // shown below
    }
  };
  const rows = page.data?.rows ?? [];
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t(`reports.${key}.title`)}</h2>
      <p>{t(`reports.${key}.intro`)}</p>
      {available && total ? (
        <p className="report-total" data-testid={`report-${name}-total`}>
          {total}
        </p>
      ) : null}
      {!available ? (
        <p className="form-note" role="note">
          {t('reports.not_available')}
        </p>
      ) : page.isPending ? (
        <Loading label={t('reports.loading')} />
      ) : page.isError && rows.length === 0 ? (
        <AdminErrorAlert error={page.error} title={t('reports.failed')} onRetry={() => void page.refetch()} />
      ) : rows.length === 0 ? (
        <div className="empty-state" role="status">
          <p className="empty-state__title">{t(`reports.${key}.empty`)}</p>
        </div>
      ) : (
        <>
          <div className="actions">
            <Button onClick={() => void download()} loading={exportCsv.isPending}>
              {t('reports.download_csv', { report: t(`reports.${key}.title`) })}
            </Button>
          </div>
          {exportCsv.error ? <AdminErrorAlert error={exportCsv.error} title={t('reports.export_failed')} /> : null}
          <ReportTable
            caption={t(`reports.${key}.table_label`)}
            columns={columns}
            rows={rows}
            rowKey={rowKey}
            page={cursors.length}
            hasNext={Boolean(page.data?.nextCursor)}
            loading={page.isFetching}
            onPrevious={() => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c))}
            onNext={() => {
              const next = page.data?.nextCursor;
              if (next) setCursors((c) => [...c, next]);
            }}
          />
        </>
      )}
    </section>
  );
}
