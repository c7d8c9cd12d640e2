import { useTranslation } from 'react-i18next';
import { Alert, Button, Checkbox, Form, Input } from 'antd';
import { aaguidSchema, WEBAUTHN_ALLOW_LIST_MAX } from '@mfa-portal/shared';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { Loading } from '../../../lib/ui/Loading';
import { useFlash } from '../../../lib/ui/flash';
import { Page } from '../../../lib/ui/Page';
import { useWebauthnPolicy } from '../api/get-webauthn-policy';
import { useUpdateWebauthnPolicy } from '../api/update-webauthn-policy';

interface PolicyForm {
  aaguids: string;
  requirePhishingResistantForProtected: boolean;
}

const linesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * How far the allow-list can be trusted: the server proves a model by its attestation (FIDO metadata
 * configured), or only compares what the authenticator claims (advisory, a warning).
 */
function AttestationNotice({ verified }: { verified: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <Alert
      type={verified ? 'info' : 'warning'}
      showIcon
      className="before-form"
      title={verified ? t('passkeys.attestation_verified_title') : t('passkeys.attestation_advisory_title')}
      description={verified ? t('passkeys.attestation_verified') : t('passkeys.attestation_advisory')}
    />
  );
}

/**
 * Passkeys and security keys, for a Solution Administrator: which authenticator models (AAGUIDs) may be
 * registered (none listed: any), and whether protected accounts must confirm it is them with one. The
 * page says plainly whether the server proves a model by its attestation (FIDO metadata configured) or
 * only compares what the authenticator claims (advisory).
 */
export function PasskeyPolicyPage() {
  const { t } = useTranslation('admin');
  const policy = useWebauthnPolicy();
  const update = useUpdateWebauthnPolicy();
  const { showSuccess } = useFlash();
  if (policy.isPending) return <Loading label={t('passkeys.loading')} />;
  if (policy.error) return <ErrorAlert error={policy.error} title={t('passkeys.load_failed')} />;
  const submit = (values: PolicyForm) =>
    update.mutate(
      {
        aaguidAllowList: linesOf(values.aaguids).map((a) => a.toLowerCase()),
        requirePhishingResistantForProtected: values.requirePhishingResistantForProtected,
      },
      { onSuccess: () => showSuccess(t('passkeys.saved')) },
    );
  return (
    <Page title={t('passkeys.title')} intro={<p>{t('passkeys.intro')}</p>}>
      <AttestationNotice verified={policy.data.attestation === 'verified'} />
      {policy.data.aaguidsWithoutMetadata.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          className="before-form"
          title={t('passkeys.without_metadata_title')}
          description={t('passkeys.without_metadata', { aaguids: policy.data.aaguidsWithoutMetadata.join(', ') })}
        />
      ) : null}
      <Form<PolicyForm>
        name="passkey-policy"
        layout="vertical"
        requiredMark={false}
        className="narrow-form"
        initialValues={{
          aaguids: policy.data.aaguidAllowList.join('\n'),
          requirePhishingResistantForProtected: policy.data.requirePhishingResistantForProtected,
        }}
        onFinish={submit}
      >
        <Form.Item
          name="aaguids"
          label={t('passkeys.allow_list_label')}
          extra={t('passkeys.allow_list_help')}
          rules={[
            {
              validator: async (_rule, value: string) => {
                const lines = linesOf(value ?? '');
                if (lines.length > WEBAUTHN_ALLOW_LIST_MAX)
                  throw new Error(t('passkeys.allow_list_too_long', { max: WEBAUTHN_ALLOW_LIST_MAX }));
                const bad = lines.find((l) => !aaguidSchema.safeParse(l).success);
                if (bad) throw new Error(t('passkeys.allow_list_invalid', { value: bad }));
              },
            },
          ]}
        >
          <Input.TextArea rows={5} spellCheck={false} autoComplete="off" />
        </Form.Item>
        <Form.Item name="requirePhishingResistantForProtected" valuePropName="checked" extra={t('passkeys.require_help')}>
          <Checkbox>{t('passkeys.require_label')}</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {update.isPending ? t('passkeys.saving') : t('passkeys.save')}
        </Button>
      </Form>
      {update.error ? <ErrorAlert error={update.error} title={t('passkeys.save_failed')} className="after-form" /> : null}
      {policy.data.updatedBy ? <p className="form-note">{t('passkeys.updated_by', { upn: policy.data.updatedBy })}</p> : null}
    </Page>
  );
}
