import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button, Form, Input } from 'antd';
import { DEVICE_NAME_MAX_LENGTH, type TotpEnrolmentResponse } from '@mfa-portal/shared';
import { isApiError } from '../../../lib/api/api-error';
import { returnPathOf } from '../../../lib/main-routes';
import { stepUpOutcome } from '../../../lib/step-up/step-up';
import { CopyButton } from '../../../lib/ui/CopyButton';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useFlash } from '../../../lib/ui/flash';
import { formatTime } from '../../../lib/ui/format';
import { Loading } from '../../../lib/ui/Loading';
import { isThisAMobileDevice } from '../../../lib/ui/mobile-device';
import { normaliseOtp, OTP_INPUT_PROPS, otpRules } from '../../../lib/ui/otp';
import { Page } from '../../../lib/ui/Page';
import { useConfirmAuthenticatorEnrolment } from '../api/confirm-authenticator-enrolment';
import { useStartAuthenticatorEnrolment } from '../api/start-authenticator-enrolment';
import '../devices.css';

interface ConfirmForm {
  name: string;
  code: string;
}

/** The QR code's SVG as a data: address for an <img> (the CSP allows data: images, not inline SVG markup). */
export function svgDataUrl(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/** The secret in groups of four, easier to read and type ("ABCD EFGH ..."). */
export const groupSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * Adding an authenticator app: install an app, show the QR code (and the key for manual entry; on a
 * phone, first a link that opens the app), confirm with the first code. Starting may ask the user to confirm it's them (step-up).
 */
export function AddAuthenticatorPage() {
  const { t } = useTranslation('devices');
  const start = useStartAuthenticatorEnrolment();
  const enrolment = start.data;
  const { error: startError, cancelled: startCancelled } = stepUpOutcome(start);
  return (
    <Page title={t('authenticator.title')} intro={<p>{t('authenticator.intro')}</p>}>
      <section className="step" aria-labelledby="authenticator-step-1">
        <h2 id="authenticator-step-1">{t('authenticator.step1_title')}</h2>
        <p>{t('authenticator.step1_body')}</p>
      </section>
      <section className="step" aria-labelledby="authenticator-step-2">
        <h2 id="authenticator-step-2">{t('authenticator.step2_title')}</h2>
        {enrolment ? (
          <EnrolmentSecret enrolment={enrolment} />
        ) : (
          <>
            <p>{t('authenticator.step2_before')}</p>
            <Button type="primary" onClick={() => start.mutate()} loading={start.isPending}>
              {start.isPending ? t('authenticator.starting') : t('authenticator.start')}
            </Button>
            {start.isPending ? <Loading label={t('authenticator.starting')} className="visually-hidden" /> : null}
            {startCancelled ? <p className="form-note">{t('authenticator.not_confirmed')}</p> : null}
            {startError ? <ErrorAlert error={startError} title={t('authenticator.start_failed')} /> : null}
          </>
        )}
      </section>
      {enrolment ? <ConfirmStep enrolment={enrolment} onRestart={() => start.reset()} /> : null}
    </Page>
  );
}

/** Only the server's `otpauth://totp/` address becomes a link (never another scheme). */
const isOtpauthUri = (uri: string) => /^otpauth:\/\/totp\/[^\s]+$/.test(uri);

/**
 * The secret three ways: the QR code, the key as text with Copy, and on a phone or tablet a link that
 * opens the authenticator app on it with everything filled in (the same `otpauth://` address the QR
 * code holds), first, since the camera cannot scan its own screen.
 */
function EnrolmentSecret({ enrolment }: { enrolment: TotpEnrolmentResponse }) {
  const { t, i18n } = useTranslation('devices');
  const src = useMemo(() => svgDataUrl(enrolment.qrSvg), [enrolment.qrSvg]);
  const onThisDevice = useMemo(() => isThisAMobileDevice() && isOtpauthUri(enrolment.otpauthUri), [enrolment.otpauthUri]);
  const qr = <img className="enrolment__qr" src={src} alt={t('authenticator.qr_alt')} width={220} height={220} />;
  const manual = (
    <div className="panel enrolment__manual">
      <h3 className="enrolment__manual-title">{t('authenticator.manual_title')}</h3>
      <p>{t('authenticator.manual_body')}</p>
      <p className="secret">
        <span className="visually-hidden">{t('authenticator.secret_label')} </span>
        <code data-testid="totp-secret">{groupSecret(enrolment.secret)}</code>
      </p>
      <CopyButton text={enrolment.secret} label={t('authenticator.copy_secret')} />
    </div>
  );
  return (
    <div className="enrolment">
      {onThisDevice ? (
        <>
          <p>{t('authenticator.step2_open')}</p>
          <a className="button button--primary enrolment__open" href={enrolment.otpauthUri}>
            {t('authenticator.open_app')}
          </a>
          <p className="form-note">{t('authenticator.open_help')}</p>
          {manual}
          <p>{t('authenticator.step2_scan_other')}</p>
          {qr}
        </>
      ) : (
        <>
          <p>{t('authenticator.step2_scan')}</p>
          {qr}
          {manual}
        </>
      )}
      <p className="form-note">{t('authenticator.expires', { time: formatTime(enrolment.expiresAt, i18n.resolvedLanguage) })}</p>
    </div>
  );
}

function ConfirmStep({ enrolment, onRestart }: { enrolment: TotpEnrolmentResponse; onRestart: () => void }) {
  const { t } = useTranslation('devices');
  const confirm = useConfirmAuthenticatorEnrolment();
  const navigate = useNavigate();
  const location = useLocation();
  const { showSuccess } = useFlash();
  // Field ids are `<form name>_<field>`: unique on the page, even with another form open behind.
  const formId = 'confirm-authenticator';
  const submit = async (values: ConfirmForm) => {
    try {
      const device = await confirm.mutateAsync({
        enrolmentId: enrolment.enrolmentId,
        name: values.name.trim(),
        code: normaliseOtp(values.code),
      });
      showSuccess(t('authenticator.done', { name: device.name }));
      void navigate(returnPathOf(location.state));
    } catch {
      // shown below from confirm.error
    }
  };
  const expired = isApiError(confirm.error, 'enrolment.expired') || isApiError(confirm.error, 'enrolment.not_found');
  const { error, cancelled } = stepUpOutcome(confirm);
  return (
    <section className="step" aria-labelledby="authenticator-step-3">
      <h2 id="authenticator-step-3">{t('authenticator.step3_title')}</h2>
      <p>{t('authenticator.step3_body')}</p>
      <Form<ConfirmForm>
        name={formId}
        layout="vertical"
        initialValues={{ name: t('authenticator.default_name'), code: '' }}
        onFinish={(values) => void submit(values)}
        requiredMark={false}
        className="narrow-form"
      >
        <Form.Item name="code" label={t('authenticator.code_label')} extra={t('authenticator.code_help')} rules={otpRules(t)}>
          <Input {...OTP_INPUT_PROPS} />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('authenticator.name_label')}
          extra={t('authenticator.name_help')}
          rules={[
            { required: true, whitespace: true, message: t('rename.name_required') },
            { max: DEVICE_NAME_MAX_LENGTH, message: t('rename.name_too_long', { max: DEVICE_NAME_MAX_LENGTH }) },
          ]}
        >
          <Input maxLength={DEVICE_NAME_MAX_LENGTH} autoComplete="off" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={confirm.isPending}>
          {confirm.isPending ? t('authenticator.confirming') : t('authenticator.confirm')}
        </Button>
      </Form>
      {cancelled ? <p className="form-note">{t('authenticator.not_confirmed')}</p> : null}
      {error ? <ErrorAlert error={error} title={t('authenticator.confirm_failed')} /> : null}
      {expired ? (
        <Button className="after-alert" onClick={onRestart}>
          {t('authenticator.restart')}
        </Button>
      ) : null}
    </section>
  );
}
