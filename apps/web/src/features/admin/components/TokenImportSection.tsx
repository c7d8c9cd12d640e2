import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form } from 'antd';
import type { AdminTokenImportResponse } from '@mfa-portal/shared';
import { useImportTokens } from '../api/token-actions';
import { AdminErrorAlert } from './AdminErrorAlert';
import { JustificationFields, justificationOf, type Justification } from './JustificationFields';

/** Reading the chosen file as text (the import sends the CSV itself). */
const readFile = (file: File): Promise<string> =>
  typeof file.text === 'function'
    ? file.text()
    : new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
        reader.readAsText(file);
      });

/** CSV import: the file, reason and ticket; then what was imported and, row by row, what was refused and why. */
export function TokenImportSection() {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<Justification>();
  const importTokens = useImportTokens();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [report, setReport] = useState<AdminTokenImportResponse | null>(null);
  const submit = async (values: Justification) => {
    if (!file) {
      setFileError(t('tokens.import.file_required'));
      return;
    }
    try {
      const csv = await readFile(file);
      setReport(await importTokens.mutateAsync({ csv, ...justificationOf(values) }));
    } catch {
      // shown below
    }
  };
  return (
    <section className="section" aria-labelledby="import-heading">
      <h2 id="import-heading">{t('tokens.import.heading')}</h2>
      <p className="section-intro">{t('tokens.import.intro')}</p>
      <Form<Justification>
        name="token-import"
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => void submit(v)}
        onFinishFailed={() => setFileError(file ? null : t('tokens.import.file_required'))}
        className="narrow-form"
      >
        <Form.Item
          label={t('tokens.import.file_label')}
          htmlFor="token-import-file"
          extra={t('tokens.import.file_help')}
          validateStatus={fileError ? 'error' : undefined}
          help={fileError ?? undefined}
        >
          <input
            id="token-import-file"
            type="file"
            accept=".csv,text/csv"
            className="file-input"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setFileError(null);
              setReport(null);
            }}
          />
        </Form.Item>
        <JustificationFields reasonHelp={t('tokens.import.reason_help')} />
        <Button type="primary" htmlType="submit" loading={importTokens.isPending}>
          {importTokens.isPending ? t('tokens.import.submitting') : t('tokens.import.submit')}
        </Button>
      </Form>
      {importTokens.error ? <AdminErrorAlert error={importTokens.error} title={t('tokens.import.failed')} className="after-form" /> : null}
      <div role="status" className="import-report">
        {report ? (
          <>
            <Alert
              type={report.refused.length ? 'warning' : 'success'}
              showIcon
              title={t('tokens.import.imported', { count: report.imported })}
              description={
                report.refused.length ? t('tokens.import.refused', { count: report.refused.length }) : t('tokens.import.all_good')
              }
            />
            {report.refused.length ? (
              <div className="table-wrap after-alert" role="region" aria-label={t('tokens.import.refused_table')} tabIndex={0}>
                <table className="data-table">
                  <caption className="visually-hidden">{t('tokens.import.refused_table')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('tokens.import.col_line')}</th>
                      <th scope="col">{t('tokens.import.col_serial')}</th>
                      <th scope="col">{t('tokens.import.col_reason')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.refused.map((r) => (
                      <tr key={`${r.line}-${r.serial ?? ''}`}>
                        <td>{r.line}</td>
                        <td>{r.serial ?? '–'}</td>
                        <td>{t(`tokens.import.reason.${r.reason}`, { defaultValue: r.reason })}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
          </>
        ) : null}
      </div>
    </section>
  );
}
