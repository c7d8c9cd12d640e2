import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert, Button, Form, Input, Progress } from 'antd';
import { downloadText } from '../../../lib/ui/download';
import { Loading } from '../../../lib/ui/Loading';
import { NativeSelect } from '../../../lib/ui/NativeSelect';
import { Page } from '../../../lib/ui/Page';
import { useAuditLog, useExportAuditCsv, type AuditFilter } from '../api/audit';
import { useAuditVerification } from '../api/get-audit-verification';
import { useStartAuditVerification } from '../api/start-audit-verification';
import { AdminErrorAlert } from '../components/AdminErrorAlert';
import { EventTable } from '../components/EventTable';
import { AUDIT_ACTION_GROUPS, AUDIT_ACTION_VALUES } from '../components/audit-actions';

const FILTER_KEYS = ['actor', 'target', 'action', 'outcome', 'from', 'to'] as const;

interface FilterForm {
  actor?: string;
  target?: string;
  action?: string;
  outcome?: string;
  /** `datetime-local` values, in the browser's time zone. */
  from?: string;
  to?: string;
}

/** "2025-05-01T10:00" (local) ⇄ ISO 8601 with its offset, as the API wants it. */
const toIso = (local: string | undefined) => (local ? new Date(local).toISOString() : undefined);
const toLocal = (iso: string | null) => {
  if (!iso) return undefined;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return undefined;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

function filterFrom(params: URLSearchParams): AuditFilter {
  const outcome = params.get('outcome');
  return {
    ...(params.get('actor') ? { actor: params.get('actor')! } : {}),
    ...(params.get('target') ? { target: params.get('target')! } : {}),
    ...(params.get('action') ? { action: params.get('action')! } : {}),
    ...(outcome === 'success' || outcome === 'failure' ? { outcome } : {}),
    ...(params.get('from') ? { from: params.get('from')! } : {}),
    ...(params.get('to') ? { to: params.get('to')! } : {}),
  };
}

/** Export and chain verification (a check runs on the server; the page shows its progress). */
function Tools({ filter }: { filter: AuditFilter }) {
  const { t } = useTranslation('admin');
  const exportCsv = useExportAuditCsv();
  const start = useStartAuditVerification();
  const run = useAuditVerification(start.data).data;
  const download = async () => {
    try {
      const csv = await exportCsv.mutateAsync(filter);
      downloadText(`${t('audit.file_name')}-${new Date().toISOString().slice(0, 10)}.csv`, csv, 'text/csv;charset=utf-8');
    } catch {
      // shown below
    }
  };
  const checking = start.isPending || run?.state === 'running';
  const result = run?.state === 'done' ? run.result : null;
  return (
    <section className="section" aria-labelledby="audit-tools-heading">
      <h2 id="audit-tools-heading">{t('audit.tools_heading')}</h2>
      <div className="actions">
        <Button onClick={() => void download()} loading={exportCsv.isPending}>
          {exportCsv.isPending ? t('audit.exporting') : t('audit.export')}
        </Button>
        <Button onClick={() => start.mutate('full')} loading={checking && start.variables === 'full'} disabled={checking}>
          {checking && start.variables === 'full' ? t('audit.verifying') : t('audit.verify')}
        </Button>
        <Button onClick={() => start.mutate('incremental')} loading={checking && start.variables === 'incremental'} disabled={checking}>
          {t('audit.verify_new')}
        </Button>
      </div>
      <p className="form-note">{t('audit.verify_hint')}</p>
      <div role="status" className="verify-result">
        {run?.state === 'running' ? (
          <>
            <Progress percent={run.total > 0 ? Math.floor((run.checked / run.total) * 100) : 0} aria-hidden />
            <p>{t('audit.verify_progress', { checked: run.checked, total: run.total })}</p>
          </>
        ) : result?.ok ? (
          <Alert type="success" showIcon title={t('audit.chain_ok_title')} description={t('audit.chain_ok', { count: result.count })} />
        ) : result ? (
          <Alert
            type="error"
            showIcon
            title={t('audit.chain_broken_title')}
            description={t('audit.chain_broken', {
              position: result.brokenAt + 1,
              id: result.id ?? '–',
              why: t(`audit.chain_reason.${result.reason}`, { defaultValue: result.reason }),
            })}
          />
        ) : run?.state === 'failed' ? (
          <Alert type="warning" showIcon title={t('audit.verify_failed')} description={t('audit.verify_interrupted')} />
        ) : null}
      </div>
      {exportCsv.error ? <AdminErrorAlert error={exportCsv.error} title={t('audit.export_failed')} /> : null}
      {start.error ? <AdminErrorAlert error={start.error} title={t('audit.verify_failed')} /> : null}
    </section>
  );
}

/** The full audit log (Solution Administrators): filters, pages of events, CSV export, chain verification. */
export function AuditPage() {
  const { t } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const filter = filterFrom(params);
  const log = useAuditLog(filter);
  const [form] = Form.useForm<FilterForm>();
  const events = log.data?.pages.flatMap((p) => p.events) ?? [];
  // In words, by who acts; an action from the address that the list does not name is kept as it is.
  const actionOptions = [
    { value: '', label: t('audit.action_any') },
    ...(filter.action && !AUDIT_ACTION_VALUES.includes(filter.action)
      ? [{ value: filter.action, label: t('audit.action_other', { action: filter.action }) }]
      : []),
    ...AUDIT_ACTION_GROUPS.map((g) => ({
      label: t(`audit.action_group.${g.group}`),
      options: g.choices.map(([key, value]) => ({ value, label: t(`audit.action_choice.${key}`) })),
    })),
  ];
  const apply = (v: FilterForm) => {
    const next = new URLSearchParams();
    const values: Record<string, string | undefined> = {
      actor: v.actor?.trim(),
      target: v.target?.trim(),
      action: v.action?.trim(),
      outcome: v.outcome,
      from: toIso(v.from),
      to: toIso(v.to),
    };
    for (const key of FILTER_KEYS) if (values[key]) next.set(key, values[key]);
    setParams(next);
  };
  return (
    <Page title={t('audit.title')} intro={<p>{t('audit.intro')}</p>}>
      <Form<FilterForm>
        name="audit-filter"
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{
          ...filter,
          from: toLocal(params.get('from')),
          to: toLocal(params.get('to')),
          action: filter.action ?? '',
          outcome: filter.outcome ?? '',
        }}
        onFinish={apply}
        className="audit-filters"
        role="search"
      >
        <Form.Item name="actor" label={t('audit.actor_label')} extra={t('audit.name_help')}>
          <Input type="search" autoComplete="off" maxLength={254} />
        </Form.Item>
        <Form.Item name="target" label={t('audit.target_label')} extra={t('audit.name_help')}>
          <Input type="search" autoComplete="off" maxLength={254} />
        </Form.Item>
        <Form.Item name="action" label={t('audit.action_label')}>
          <NativeSelect options={actionOptions} />
        </Form.Item>
        <Form.Item name="outcome" label={t('audit.outcome_label')}>
          <NativeSelect
            options={[
              { value: '', label: t('audit.outcome_any') },
              { value: 'success', label: t('events.success') },
              { value: 'failure', label: t('events.failure') },
            ]}
          />
        </Form.Item>
        <Form.Item name="from" label={t('audit.from_label')}>
          <input type="datetime-local" className="ant-input ant-input-outlined" />
        </Form.Item>
        <Form.Item
          name="to"
          label={t('audit.to_label')}
          dependencies={['from']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_r, value: string | undefined) => {
                const from = getFieldValue('from') as string | undefined;
                return !value || !from || Date.parse(from) <= Date.parse(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('audit.to_before_from')));
              },
            }),
          ]}
        >
          <input type="datetime-local" className="ant-input ant-input-outlined" />
        </Form.Item>
        <div className="actions audit-filters__actions">
          <Button type="primary" htmlType="submit">
            {t('audit.apply')}
          </Button>
          <Button
            onClick={() => {
              form.setFieldsValue({ actor: '', target: '', action: '', outcome: '', from: undefined, to: undefined });
              setParams(new URLSearchParams());
            }}
          >
            {t('audit.clear')}
          </Button>
        </div>
      </Form>
      <Tools filter={filter} />
      <section className="section" aria-labelledby="audit-events-heading">
        <h2 id="audit-events-heading">{t('audit.events_heading')}</h2>
        {log.isPending ? (
          <Loading label={t('audit.loading')} />
        ) : log.isError && events.length === 0 ? (
          <AdminErrorAlert error={log.error} title={t('audit.failed')} onRetry={() => void log.refetch()} />
        ) : events.length === 0 ? (
          <div className="empty-state" role="status">
            <p className="empty-state__title">{t('audit.empty_title')}</p>
            <p>{t('audit.empty_body')}</p>
          </div>
        ) : (
          <>
            {/* A new filter's events are on their way: the old rows stay, but nobody should take them for the answer. */}
            <p role="status" className="form-note">
              {log.isPlaceholderData ? t('audit.updating') : t('audit.shown', { count: events.length })}
            </p>
            <EventTable events={events} caption={t('audit.table_label')} showTarget busy={log.isPlaceholderData} />
            {log.isFetchNextPageError ? <AdminErrorAlert error={log.error} title={t('audit.more_failed')} /> : null}
            {log.hasNextPage ? (
              <Button onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} className="after-list">
                {log.isFetchingNextPage ? t('audit.loading_more') : t('audit.load_more')}
              </Button>
            ) : (
              <p className="form-note">{t('audit.end')}</p>
            )}
          </>
        )}
      </section>
    </Page>
  );
}
