import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button, Form, Input } from 'antd';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import {
  DEFAULT_COUNTRY_CODE,
  DEVICE_NAME_MAX_LENGTH,
  PHONE_PLATFORMS,
  type Device,
  type PhonePlatform,
  type ProviderCapabilitiesResponse,
} from '@mfa-portal/shared';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';
import { useCapabilities } from '../../../lib/capabilities/get-capabilities';
import { AddKindLinks } from '../../../lib/devices/AddDeviceAdvice';
import { ADD_ROUTES, addableKinds } from '../../../lib/devices/device-kinds';
import { MAIN_ROUTES } from '../../../lib/main-routes';
import { stepUpOutcome } from '../../../lib/step-up/step-up';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useFlash } from '../../../lib/ui/flash';
import { formatDate } from '../../../lib/ui/format';
import { Loading } from '../../../lib/ui/Loading';
import { NativeSelect } from '../../../lib/ui/NativeSelect';
import { Page } from '../../../lib/ui/Page';
import { useAddPhone } from '../api/add-phone';
import { usePhoneActivation } from '../api/get-phone-activation';
import { useSendSmsActivation } from '../api/send-sms-activation';
import { svgDataUrl } from './AddAuthenticatorPage';
import '../devices.css';

interface PhoneForm {
  country: CountryCode;
  number: string;
  platform: PhonePlatform;
  name: string;
}

/** E.164 form of a number typed in the national or international format, or null when it is not valid. */
export function toE164(number: string, country: CountryCode): { e164: string; international: string } | null {
  const parsed = parsePhoneNumberFromString(number, country);
  if (!parsed || !parsed.isValid()) return null;
  return { e164: parsed.number, international: parsed.formatInternational() };
}

/**
 * A phone (push and passcodes in the MFA service's app, activation by QR code or text message). What the
 * page offers follows what the organisation's MFA service can do (GET /api/me/capabilities): with phones,
 * the number (country default US, checked with libphonenumber, sent in E.164) is added, then the app is
 * activated; without, the page says how a phone is set up here instead, and offers nothing that saves nothing.
 */
export default function AddPhonePage() {
  const { t } = useTranslation('devices');
  const capabilities = useCapabilities();
  return (
    <Page title={t('phone.title')} intro={<p>{t('phone.intro')}</p>}>
      {capabilities.isPending ? (
        <Loading label={t('phone.loading')} />
      ) : capabilities.isError ? (
        <ErrorAlert error={capabilities.error} onRetry={() => void capabilities.refetch()} />
      ) : capabilities.data.phones ? (
        <AddPhoneFlow smsActivation={capabilities.data.smsActivation} />
      ) : (
        <PhonesUnavailable capabilities={capabilities.data} />
      )}
    </Page>
  );
}

function useCountries() {
  const { i18n } = useTranslation('devices');
  return useMemo(() => {
    const names = new Intl.DisplayNames([i18n.resolvedLanguage ?? 'en'], { type: 'region' });
    return getCountries()
      .map((code) => ({ value: code, label: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
      .sort((a, b) => a.label.localeCompare(b.label));
  }, [i18n.resolvedLanguage]);
}

/** Country (US by default) and number, checked for that country. */
function PhoneNumberFields() {
  const { t } = useTranslation('devices');
  const countries = useCountries();
  return (
    <>
      <Form.Item name="country" label={t('phone.country_label')}>
        <NativeSelect options={countries} autoComplete="country" />
      </Form.Item>
      <Form.Item
        name="number"
        label={t('phone.number_label')}
        extra={t('phone.number_help')}
        dependencies={['country']}
        rules={[
          { required: true, whitespace: true, message: t('phone.number_required') },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              !value?.trim() || toE164(value, getFieldValue('country') as CountryCode)
                ? Promise.resolve()
                : Promise.reject(new Error(t('phone.number_invalid'))),
          }),
        ]}
      >
        <Input type="tel" autoComplete="tel" inputMode="tel" />
      </Form.Item>
    </>
  );
}

/**
 * The provider adds no phone by its number (the builtin provider): the page says how a phone is set up
 * here instead (the portal's own app, else an authenticator app) and offers the other kinds from the one
 * place that lists them, so a person who followed an old link is not left with a form that saves nothing.
 */
function PhonesUnavailable({ capabilities }: { capabilities: ProviderCapabilitiesResponse }) {
  const { t } = useTranslation('devices');
  const { t: tm } = useTranslation('main');
  const instead = capabilities.authenticatorApp ? 'portal_authenticator' : capabilities.totp ? 'authenticator' : null;
  const advice = addableKinds(capabilities);
  const others = { ...advice, kinds: advice.kinds.filter((kind) => kind !== instead) };
  const [title, body] =
    instead === 'portal_authenticator' ? ['by_app_title', 'by_app_body'] : ['by_authenticator_title', 'by_authenticator_body'];
  return (
    <>
      {instead ? (
        <section className="panel" aria-labelledby="phone-instead-heading">
          <h2 id="phone-instead-heading">{t(`phone.${title}`)}</h2>
          <p>{t(`phone.${body}`)}</p>
          <Link className="button button--primary" to={ADD_ROUTES[instead]}>
            {tm(`device_kinds.${instead}.add`)}
          </Link>
        </section>
      ) : null}
      {others.kinds.length > 0 ? (
        <p className="after-form">
          {t('phone.other_kinds')} <AddKindLinks advice={others} />
        </p>
      ) : null}
    </>
  );
}

/** Step 1: the number, the kind of phone and a name; step 2: activate the app on it. */
function AddPhoneFlow({ smsActivation }: { smsActivation: boolean }) {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<PhoneForm>();
  const add = useAddPhone();
  const country = Form.useWatch('country', form) ?? (DEFAULT_COUNTRY_CODE as CountryCode);
  const number = Form.useWatch('number', form) ?? '';
  const preview = number.trim() ? toE164(number, country) : null;
  const platforms = PHONE_PLATFORMS.map((p) => ({ value: p, label: t(`phone.platform_${p}`) }));
  const added = add.data ?? null;
  const submit = (values: PhoneForm) => {
    const e164 = toE164(values.number, values.country);
    if (!e164) return;
    add.mutate({ number: e164.e164, platform: values.platform, ...(values.name.trim() ? { name: values.name.trim() } : {}) });
  };
  const { error, cancelled } = stepUpOutcome(add);

  return (
    <>
      <section className="step" aria-labelledby="phone-step-1">
        <h2 id="phone-step-1">{t('phone.step1_title')}</h2>
        {added ? (
          <p role="status">{t('phone.added', { name: added.name, number: added.phoneNumber ?? '' })}</p>
        ) : (
          <>
            <Form<PhoneForm>
              name="add-phone"
              form={form}
              layout="vertical"
              initialValues={{ country: DEFAULT_COUNTRY_CODE as CountryCode, number: '', platform: 'ios', name: t('phone.default_name') }}
              onFinish={submit}
              requiredMark={false}
              className="narrow-form"
            >
              <PhoneNumberFields />
              <p className="form-note" aria-live="polite" data-testid="e164-preview">
                {preview ? t('phone.e164_preview', { e164: preview.e164 }) : null}
              </p>
              <Form.Item name="platform" label={t('phone.platform_label')}>
                <NativeSelect options={platforms} />
              </Form.Item>
              <Form.Item
                name="name"
                label={t('phone.name_label')}
                extra={t('phone.name_help')}
                rules={[
                  { required: true, whitespace: true, message: t('rename.name_required') },
                  { max: DEVICE_NAME_MAX_LENGTH, message: t('rename.name_too_long', { max: DEVICE_NAME_MAX_LENGTH }) },
                ]}
              >
                <Input maxLength={DEVICE_NAME_MAX_LENGTH} autoComplete="off" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={add.isPending}>
                {add.isPending ? t('phone.adding') : t('phone.add')}
              </Button>
            </Form>
            {add.isPending ? <Loading label={t('phone.adding')} className="visually-hidden" /> : null}
            {cancelled ? <p className="form-note">{t('phone.not_confirmed')}</p> : null}
            {error ? <ErrorAlert error={error} title={t('phone.add_failed')} /> : null}
          </>
        )}
      </section>
      {added ? <ActivationStep device={added} smsActivation={smsActivation} /> : null}
    </>
  );
}

/** Step 2: scan the activation QR code in the app (or open the link, or get it by text message). */
function ActivationStep({ device, smsActivation }: { device: Device; smsActivation: boolean }) {
  const { t, i18n } = useTranslation('devices');
  const activation = usePhoneActivation(device.id);
  const sms = useSendSmsActivation();
  const navigate = useNavigate();
  const { showSuccess } = useFlash();
  const invalidate = useInvalidateMe();
  const [finishing, setFinishing] = useState(false);
  const src = useMemo(() => (activation.data?.qrSvg ? svgDataUrl(activation.data.qrSvg) : null), [activation.data?.qrSvg]);
  // The app was set up on the phone, outside the portal: read the devices again (the phone now takes
  // pushes), then show them.
  const finish = async () => {
    setFinishing(true);
    try {
      await invalidate();
    } finally {
      showSuccess(t('phone.done', { name: device.name }));
      void navigate(MAIN_ROUTES.overview);
    }
  };
  const { error: activationError, cancelled: activationCancelled } = stepUpOutcome(activation);
  const { error: smsError, cancelled: smsCancelled } = stepUpOutcome(sms);

  return (
    <section className="step" aria-labelledby="phone-step-2">
      <h2 id="phone-step-2">{t('phone.step2_title')}</h2>
      {activation.isPending ? <Loading label={t('phone.activation_loading')} /> : null}
      {activationCancelled ? <p className="form-note">{t('phone.not_confirmed')}</p> : null}
      {activationError ? (
        <ErrorAlert error={activationError} title={t('phone.activation_failed')} onRetry={() => void activation.refetch()} />
      ) : null}
      {activation.data ? (
        <div className="enrolment">
          <ol className="activation-steps">
            <li>
              {t('phone.activation_install')}{' '}
              {activation.data.installationUrl ? (
                <a href={activation.data.installationUrl} target="_blank" rel="noreferrer">
                  {t('phone.activation_install_link')}
                </a>
              ) : null}
            </li>
            <li>{t('phone.activation_scan')}</li>
          </ol>
          {src ? <img className="enrolment__qr" src={src} alt={t('phone.qr_alt')} width={220} height={220} /> : null}
          <p>
            {t('phone.activation_link_intro')}{' '}
            <a href={activation.data.activationUrl} target="_blank" rel="noreferrer">
              {t('phone.activation_link')}
            </a>
          </p>
          <p className="form-note">
            {t('phone.activation_expires', { time: formatDate(activation.data.expiresAt, i18n.resolvedLanguage, true) })}
          </p>
        </div>
      ) : null}
      {smsActivation ? (
        <div className="after-form">
          <Button onClick={() => sms.mutate(device.id)} loading={sms.isPending}>
            {sms.isPending ? t('phone.sms_sending') : t('phone.sms_send')}
          </Button>
          <div role="status" aria-live="polite">
            {sms.isSuccess ? (
              <p>
                {t('phone.sms_sent', {
                  number: device.phoneNumber ?? '',
                  time: formatDate(sms.data.expiresAt, i18n.resolvedLanguage, true),
                })}
              </p>
            ) : null}
          </div>
          {smsCancelled ? <p className="form-note">{t('phone.not_confirmed')}</p> : null}
          {smsError ? <ErrorAlert error={smsError} title={t('phone.sms_failed')} /> : null}
        </div>
      ) : null}
      <section className="step" aria-labelledby="phone-step-3">
        <h2 id="phone-step-3">{t('phone.step3_title')}</h2>
        <p>{t('phone.step3_body')}</p>
        <Button type="primary" onClick={() => void finish()} loading={finishing}>
          {t('phone.finish')}
        </Button>
      </section>
    </section>
  );
}
