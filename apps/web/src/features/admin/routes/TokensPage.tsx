import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert, Button, Form, Input } from 'antd';
import { TOKEN_STATUSES, type AdminTokenStatus } from '@mfa-portal/shared';
import { isApiError } from '../../../lib/api/api-error';
import { ADMIN_ROUTES } from '../../../lib/main-routes';
import { formatDate } from '../../../lib/ui/format';
import { Loading } from '../../../lib/ui/Loading';
import { NativeSelect } from '../../../lib/ui/NativeSelect';
import { Page } from '../../../lib/ui/Page';
import { TOKENS_LIMIT, useTokens } from '../api/get-tokens';
import { AdminErrorAlert } from '../components/AdminErrorAlert';
import { JustificationMemory } from '../components/justification-memory';
import { TokenActionDialog, type TokenDialog } from '../components/TokenActionDialog';
import { TokenImportSection } from '../components/TokenImportSection';

const isStatus = (v: string | null): v is AdminTokenStatus => (TOKEN_STATUSES as readonly (string | null)[]).includes(v);

/**
 * The hardware-token inventory (Solution Administrators): search, list, unassign, retire, import. When
 * the organisation's MFA service keeps the inventory itself (Duo: the list answers 409
 * `mfa.not_supported_by_provider`), the page says where it is managed instead of showing an error, and
 * offers no import.
 */
export function TokensPage() {
  const { t, i18n } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const statusParam = params.get('status');
  const status = isStatus(statusParam) ? statusParam : '';
  const tokens = useTokens(q, status);
  const [dialog, setDialog] = useState<TokenDialog>(null);
  const [form] = Form.useForm<{ q: string; status: string }>();
  const language = i18n.resolvedLanguage;
  if (isApiError(tokens.error, 'mfa.not_supported_by_provider')) {
    return (
      <Page title={t('tokens.title')}>
        <Alert
          role="note"
          type="info"
          showIcon
          title={t('tokens.managed_elsewhere_title')}
          description={
            <>
              <p>{t('tokens.managed_elsewhere_body')}</p>
              <p>
                {t('tokens.managed_elsewhere_users')} <Link to={ADMIN_ROUTES.users}>{t('tokens.managed_elsewhere_users_link')}</Link>
              </p>
            </>
          }
        />
      </Page>
    );
  }
  return (
    <JustificationMemory>
      <Page title={t('tokens.title')} intro={<p>{t('tokens.intro')}</p>}>
        <Form
          name="token-search"
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ q, status }}
          onFinish={(v) => setParams({ ...(v.q?.trim() ? { q: v.q.trim() } : {}), ...(v.status ? { status: v.status } : {}) })}
          className="filter-form"
          role="search"
        >
          <Form.Item name="q" label={t('tokens.query_label')}>
            <Input type="search" maxLength={100} autoComplete="off" />
          </Form.Item>
          <Form.Item name="status" label={t('tokens.status_label')}>
            <NativeSelect
              options={[
                { value: '', label: t('tokens.status_any') },
                ...TOKEN_STATUSES.map((s) => ({ value: s, label: t(`tokens.status.${s}`) })),
              ]}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit">
            {t('tokens.search')}
          </Button>
        </Form>
        <section className="section" aria-labelledby="tokens-heading">
          <h2 id="tokens-heading">{t('tokens.list_heading')}</h2>
          {tokens.isPending ? (
            <Loading label={t('tokens.loading')} />
          ) : tokens.isError ? (
            <AdminErrorAlert error={tokens.error} title={t('tokens.failed')} onRetry={() => void tokens.refetch()} />
          ) : tokens.data.length === 0 ? (
            <div className="empty-state" role="status">
              <p className="empty-state__title">{t('tokens.empty_title')}</p>
              <p>{t('tokens.empty_body')}</p>
            </div>
          ) : (
            <>
              <p role="status" className="form-note">
                {tokens.data.length >= TOKENS_LIMIT
                  ? t('tokens.count_limited', { count: tokens.data.length })
                  : t('tokens.count', { count: tokens.data.length })}
              </p>
              <div className="table-wrap" role="region" aria-label={t('tokens.table_label')} tabIndex={0}>
                <table className="data-table">
                  <caption className="visually-hidden">{t('tokens.table_label')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('tokens.col_serial')}</th>
                      <th scope="col">{t('tokens.col_type')}</th>
                      <th scope="col">{t('tokens.col_status')}</th>
                      <th scope="col">{t('tokens.col_holder')}</th>
                      <th scope="col">{t('tokens.col_added')}</th>
                      <th scope="col">{t('tokens.col_actions')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {tokens.data.map((token) => (
                      <tr key={token.serial}>
                        <td>{token.serial}</td>
                        <td>{token.tokenType}</td>
                        <td>
                          <span
                            className={`badge badge--${token.status === 'available' ? 'ok' : token.status === 'assigned' ? 'info' : 'neutral'}`}
                          >
                            {t(`tokens.status.${token.status}`)}
                          </span>
                        </td>
                        <td>
                          {token.assignedTo ? <Link to={ADMIN_ROUTES.user(token.assignedTo)}>{token.assignedTo}</Link> : '–'}
                          {token.assignedAt ? (
                            <span className="cell-note">{t('tokens.since', { date: formatDate(token.assignedAt, language) })}</span>
                          ) : null}
                        </td>
                        <td>{formatDate(token.createdAt, language)}</td>
                        <td>
                          {token.status === 'assigned' ? (
                            <Button
                              onClick={() => setDialog({ kind: 'unassign', token })}
                              aria-label={t('tokens.unassign.named', { serial: token.serial })}
                            >
                              {t('tokens.unassign.open')}
                            </Button>
                          ) : token.status === 'available' ? (
                            <Button
                              danger
                              onClick={() => setDialog({ kind: 'retire', token })}
                              aria-label={t('tokens.retire.named', { serial: token.serial })}
                            >
                              {t('tokens.retire.open')}
                            </Button>
                          ) : (
                            '–'
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </section>
        {tokens.isPending ? null : <TokenImportSection />}
        {dialog ? <TokenActionDialog dialog={dialog} onClose={() => setDialog(null)} /> : null}
      </Page>
    </JustificationMemory>
  );
}
