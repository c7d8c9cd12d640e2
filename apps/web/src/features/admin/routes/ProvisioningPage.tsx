import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input } from 'antd';
import { createScimTokenRequestSchema, SCIM_TOKEN_NAME_MAX, type CreateScimTokenResponse } from '@mfa-portal/shared';
import { CopyButton } from '../../../lib/ui/CopyButton';
import { formatDate } from '../../../lib/ui/format';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useCreateScimToken, useRevokeScimToken, useScimTokens } from '../api/scim-tokens';
import { AdminErrorAlert } from '../components/AdminErrorAlert';

/**
 * Provisioning (Solution Administrators): the SCIM endpoint to give the directory (Entra's "Tenant
 * URL") and its secret tokens: created with a name (the secret is shown once), listed with when they
 * were last used, revoked.
 */
export function ProvisioningPage() {
  const { t, i18n } = useTranslation('admin');
  const language = i18n.resolvedLanguage;
  const tokens = useScimTokens();
  const create = useCreateScimToken();
  const revoke = useRevokeScimToken();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreateScimTokenResponse | null>(null);
  const nameValid = createScimTokenRequestSchema.safeParse({ name }).success;

  return (
    <Page title={t('provisioning.title')} intro={<p>{t('provisioning.intro')}</p>}>
      {tokens.data ? (
        <dl className="facts admin-facts">
          <div>
            <dt>{t('provisioning.endpoint')}</dt>
            <dd>
              <code>{tokens.data.endpoint}</code>
            </dd>
          </div>
          <div>
            <dt>{t('provisioning.environment')}</dt>
            <dd>{tokens.data.environmentToken ? t('provisioning.environment_set') : t('provisioning.environment_unset')}</dd>
          </div>
        </dl>
      ) : null}

      {created ? (
        <div className="panel activation-result" role="status">
          <p>{t('provisioning.created_once', { name: created.token.name })}</p>
          <p>
            <code className="activation-link">{created.secret}</code>
          </p>
          <CopyButton text={created.secret} label={t('provisioning.copy')} />
          <Button onClick={() => setCreated(null)}>{t('provisioning.done')}</Button>
        </div>
      ) : null}

      <section className="section" aria-labelledby="new-token-heading">
        <h2 id="new-token-heading">{t('provisioning.new_heading')}</h2>
        <Form
          layout="vertical"
          requiredMark={false}
          onFinish={() =>
            void create
              .mutateAsync(name.trim())
              .then((res) => {
                setCreated(res);
                setName('');
              })
              .catch(() => undefined)
          }
        >
          <Form.Item label={t('provisioning.name')} htmlFor="scim-token-name" extra={t('provisioning.name_help')}>
            <Input
              id="scim-token-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={SCIM_TOKEN_NAME_MAX}
              autoComplete="off"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={create.isPending} disabled={!nameValid}>
            {t('provisioning.create')}
          </Button>
        </Form>
        {create.isError ? <AdminErrorAlert error={create.error} title={t('provisioning.create_failed')} /> : null}
      </section>

      <section className="section" aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">{t('provisioning.list_heading')}</h2>
        {tokens.isPending ? <Loading label={t('provisioning.loading')} /> : null}
        {tokens.isError ? (
          <AdminErrorAlert error={tokens.error} title={t('provisioning.load_failed')} onRetry={() => void tokens.refetch()} />
        ) : null}
        {tokens.data && tokens.data.tokens.length === 0 ? <p>{t('provisioning.none')}</p> : null}
        {tokens.data && tokens.data.tokens.length > 0 ? (
          <div className="table-wrap" role="region" aria-label={t('provisioning.list_heading')} tabIndex={0}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('provisioning.col_name')}</th>
                  <th scope="col">{t('provisioning.col_created')}</th>
                  <th scope="col">{t('provisioning.col_last_used')}</th>
                  <th scope="col">{t('provisioning.col_state')}</th>
                </tr>
              </thead>
              <tbody>
                {tokens.data.tokens.map((tok) => (
                  <tr key={tok.id}>
                    <td>{tok.name}</td>
                    <td>{t('provisioning.created_by', { date: formatDate(tok.createdAt, language, true), by: tok.createdBy })}</td>
                    <td>{tok.lastUsedAt ? formatDate(tok.lastUsedAt, language, true) : t('provisioning.never_used')}</td>
                    <td>
                      {tok.revokedAt ? (
                        t('provisioning.revoked', { date: formatDate(tok.revokedAt, language, true) })
                      ) : (
                        <Button
                          danger
                          size="small"
                          onClick={() => void revoke.mutateAsync(tok.id).catch(() => undefined)}
                          aria-label={t('provisioning.revoke_named', { name: tok.name })}
                        >
                          {t('provisioning.revoke')}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {revoke.isError ? <Alert role="alert" type="error" showIcon title={t('provisioning.revoke_failed')} /> : null}
      </section>
    </Page>
  );
}
