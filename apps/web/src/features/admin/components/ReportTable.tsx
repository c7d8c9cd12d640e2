import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { DataTable, type DataColumn } from './DataTable';

export type ReportColumn<T> = DataColumn<T>;

/**
 * One page of a report as a {@link DataTable}, with buttons to the previous and next pages. The caller keeps the cursors.
 */
export function ReportTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  page,
  hasNext,
  onPrevious,
  onNext,
  loading,
}: {
  caption: string;
  columns: ReportColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  page: number;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  loading: boolean;
}) {
  const { t } = useTranslation('admin');
  return (
    <>
      <DataTable caption={caption} columns={columns} rows={rows} rowKey={rowKey} />
      {page > 1 || hasNext ? (
        <nav className="actions after-list" aria-label={t('reports.paging_label', { table: caption })}>
          <Button onClick={onPrevious} disabled={page <= 1 || loading}>
            {t('reports.previous_page')}
          </Button>
          <span className="form-note">{t('reports.page', { page })}</span>
          <Button onClick={onNext} disabled={!hasNext || loading} loading={loading && hasNext}>
            {t('reports.next_page')}
          </Button>
        </nav>
      ) : null}
    </>
  );
}
