import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button, Form, Input } from 'antd';
import { DEVICE_NAME_MAX_LENGTH } from '@mfa-portal/shared';
import { useCapabilities } from '../../../lib/capabilities/get-capabilities';
import { useFactorPolicy } from '../../../lib/devices/api/get-factor-policy';
import { webauthnOnly } from '../../../lib/devices/factor-policy-texts';
import { returnPathOf } from '../../../lib/main-routes';
import { stepUpOutcome } from '../../../lib/step-up/step-up';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useFlash } from '../../../lib/ui/flash';
import { Page } from '../../../lib/ui/Page';
import { useCompleteRegistration } from '../api/finish-webauthn-registration';
import { usePrepareRegistration } from '../api/start-webauthn-registration';
import '../devices.css';

/**
 * Adding a passkey (this computer or phone: fingerprint, face or PIN) or a security key (a USB or NFC
 * key): the user names it, then the browser asks them to confirm on the device. With Duo, passkeys are
 * enrolled in Duo's own prompt: the page says so instead of offering the form.
 */
export function AddPasskeyPage() {
  const { t } = useTranslation('devices');
  const { t: tm } = useTranslation('main');
  const capabilities = useCapabilities().data;
  // The organisation may allow only one of the two (a passkey of the other kind is refused by the server).
  const onlyOne = webauthnOnly(useFactorPolicy().data);
  const prepare = usePrepareRegistration();
  const complete = useCompleteRegistration();
  const [ready, setReady] = useState<{ challengeId: string; options: Record<string, unknown>; name: string } | null>(null);
  const navigate = useNavigate();
  const location = useLocation();
  const { showSuccess } = useFlash();
  const create = async (input: { challengeId: string; options: Record<string, unknown>; name: string }) => {
    try {
      const device = await complete.mutateAsync(input);
      showSuccess(t('passkey.done', { name: device.name }));
      void navigate(returnPathOf(location.state));
    } catch {
      // shown below from complete.error
    }
  };
  const submit = async ({ name }: { name: string }) => {
    complete.reset();
    try {
      const prepared = await prepare.mutateAsync();
      const input = { challengeId: prepared.challengeId, options: prepared.options, name: name.trim() };
      // Straight after the click, the browser asks for the passkey; after the step-up dialog, one more click.
      if (prepared.steppedUp) setReady(input);
      else await create(input);
    } catch {
      // shown below from prepare.error
    }
  };
  const isPending = prepare.isPending || complete.isPending;
  const { error, cancelled } = stepUpOutcome({ isError: prepare.isError || complete.isError, error: prepare.error ?? complete.error });
  if (capabilities && !capabilities.webauthn) {
    return (
      <Page title={t('passkey.title')}>
        <div className="panel guidance">
          <p>{capabilities.webauthnEnrolledInProviderPrompt ? t('passkey.in_provider_prompt') : t('passkey.not_available')}</p>
        </div>
      </Page>
    );
  }
  return (
    <Page title={t('passkey.title')} intro={<p>{t('passkey.intro')}</p>}>
      <div className="panel guidance">
        <h2 className="guidance__title">{onlyOne ? tm(`factor_policy.${onlyOne}_only.title`) : t('passkey.which_title')}</h2>
        <p>{onlyOne ? tm(`factor_policy.${onlyOne}_only.body`) : t('passkey.which_body')}</p>
      </div>
      <Form<{ name: string }>
        name="add-passkey"
        layout="vertical"
        onFinish={(v) => void submit(v)}
        requiredMark={false}
        className="narrow-form"
      >
        <Form.Item
          name="name"
          label={t('passkey.name_label')}
          extra={t('passkey.name_help')}
          rules={[
            { required: true, whitespace: true, message: t('passkey.name_required') },
            { max: DEVICE_NAME_MAX_LENGTH, message: t('rename.name_too_long', { max: DEVICE_NAME_MAX_LENGTH }) },
          ]}
        >
          <Input maxLength={DEVICE_NAME_MAX_LENGTH} autoComplete="off" />
        </Form.Item>
        {ready ? null : (
          <Button type="primary" htmlType="submit" loading={isPending}>
            {isPending ? t('passkey.submitting') : t('passkey.submit')}
          </Button>
        )}
      </Form>
      {ready ? (
        <div className="panel guidance" role="status">
          <p>{t('passkey.ready')}</p>
          <Button type="primary" loading={complete.isPending} onClick={() => void create(ready)}>
            {complete.isPending ? t('passkey.submitting') : t('passkey.create_now')}
          </Button>
        </div>
      ) : null}
      {cancelled ? <p className="form-note">{t('passkey.not_confirmed')}</p> : null}
      {error ? <ErrorAlert error={error} title={t('passkey.failed')} className="after-form" /> : null}
    </Page>
  );
}
