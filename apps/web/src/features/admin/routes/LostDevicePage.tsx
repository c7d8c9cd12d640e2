import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Alert, Button, Checkbox, Form, InputNumber, Radio } from 'antd';
import {
  LOST_DEVICE_MAX_VALIDITY_SECONDS,
  type AdminLostDeviceProgress,
  type AdminLostDeviceResponse,
  type AdminUserDetail,
} from '@mfa-portal/shared';
import { useUser } from '../../../shell/contexts';
import { underBase } from '../../../shell/base-path';
import { NewCodesPanel } from '../../../lib/bypass-codes/NewCodesPanel';
import { ADMIN_ROUTES } from '../../../lib/routes';
import { CopyButton } from '../../../lib/ui/CopyButton';
import { formatDate } from '../../../lib/ui/format';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useAdminUser } from '../api/get-user';
import { useLostDeviceProgress, useReportLostDevice } from '../api/lost-device';
import { AdminErrorAlert } from '../components/AdminErrorAlert';
import { isDenyReason } from '../components/admin-errors';
import { JustificationFields, justificationOf, type Justification } from '../components/JustificationFields';
import { deviceChoiceLabel, VerifyIdentityPanel } from '../components/VerifyIdentityPanel';
import {
  currentCase,
  currentStep,
  readStored,
  storageKey,
  WIZARD_STEPS,
  writeStored,
  type StoredWizard,
  type WizardStep,
} from '../lost-device/wizard-state';

const HOUR = 60 * 60;
const MAX_HOURS = LOST_DEVICE_MAX_VALIDITY_SECONDS / HOUR;

interface RemoveValues extends Justification {
  deviceId: string;
  hours: number | null;
}

/** Steps 2 and 3 on the server: remove the chosen device, then issue one single-use code (≤ 24 h). */
function RemoveStep({
  upn,
  detail,
  verifiedOtherWay,
  onIssued,
}: {
  upn: string;
  detail: AdminUserDetail;
  verifiedOtherWay: boolean;
  onIssued: (r: AdminLostDeviceResponse) => void;
}) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<RemoveValues>();
  const report = useReportLostDevice(upn);
  const [understood, setUnderstood] = useState(false);
  const devices = detail.mfa.devices;
  const only = devices.length === 1;
  if (devices.length === 0) return <p>{t('wizard.remove.no_devices')}</p>;
  const submit = async (values: RemoveValues) => {
    try {
      onIssued(
        await report.mutateAsync({
          deviceId: values.deviceId,
          validitySeconds: (values.hours ?? MAX_HOURS) * HOUR,
          confirmLastDevice: only && understood,
          ...justificationOf(values),
        }),
      );
    } catch {
      // shown below
    }
  };
  return (
    <>
      <p>{t('wizard.remove.intro')}</p>
      <Form<RemoveValues>
        name="wizard-remove"
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ hours: MAX_HOURS }}
        onFinish={(v) => void submit(v)}
        className="narrow-form"
      >
        <Form.Item
          name="deviceId"
          label={t('wizard.remove.device_label')}
          rules={[{ required: true, message: t('wizard.remove.device_required') }]}
        >
          <Radio.Group className="radio-list">
            {devices.map((d) => (
              <Radio key={d.id} value={d.id}>
                {deviceChoiceLabel(d)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="hours"
          label={t('wizard.remove.hours_label')}
          extra={t('wizard.remove.hours_help', { max: MAX_HOURS })}
          rules={[
            { required: true, message: t('wizard.remove.hours_required') },
            {
              validator: (_rule, value: number | null | undefined) =>
                value === null || value === undefined || (Number.isInteger(value) && value >= 1 && value <= MAX_HOURS)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('wizard.remove.hours_range', { max: MAX_HOURS }))),
            },
          ]}
        >
          <InputNumber inputMode="numeric" precision={0} className="number-input" />
        </Form.Item>
        <JustificationFields reasonHelp={verifiedOtherWay ? t('wizard.remove.reason_other_way') : undefined} />
        {only ? (
          <>
            <Alert type="warning" showIcon title={t('wizard.remove.last_title')} description={t('wizard.remove.last_body')} />
            <Checkbox checked={understood} onChange={(e) => setUnderstood(e.target.checked)} className="dialog-paragraph">
              {t('wizard.remove.last_acknowledge')}
            </Checkbox>
          </>
        ) : null}
        <div className="actions">
          <Button type="primary" danger htmlType="submit" loading={report.isPending} disabled={only && !understood}>
            {report.isPending ? t('wizard.remove.submitting') : t('wizard.remove.submit')}
          </Button>
        </div>
      </Form>
      {report.error ? <AdminErrorAlert error={report.error} title={t('wizard.remove.failed')} className="after-form" /> : null}
    </>
  );
}

/** Step 3 after a reload: the code was shown once; say what is known of it and offer a new one. */
function CodeSummary({
  upn,
  kase,
  onIssued,
}: {
  upn: string;
  kase: NonNullable<AdminLostDeviceProgress['case']>;
  onIssued: (r: AdminLostDeviceResponse) => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const report = useReportLostDevice(upn);
  const code = kase.bypassCode;
  const reissue = async () => {
    try {
      onIssued(
        await report.mutateAsync({
          deviceId: kase.removedDevice.id,
          validitySeconds: LOST_DEVICE_MAX_VALIDITY_SECONDS,
          // The removal is already done (the server skips it); the case's own reason and ticket go with the new code.
          confirmLastDevice: true,
          reason: kase.reason ?? '',
          ticket: kase.ticket ?? '',
        }),
      );
    } catch {
      // shown below
    }
  };
  return (
    <>
      {code ? (
        <p>
          {code.usesLeft > 0 && code.expiresAt
            ? t('wizard.code.issued_unused', {
                issued: formatDate(code.issuedAt, i18n.resolvedLanguage, true),
                expires: formatDate(code.expiresAt, i18n.resolvedLanguage, true),
              })
            : t('wizard.code.issued_used', { issued: formatDate(code.issuedAt, i18n.resolvedLanguage, true) })}
        </p>
      ) : (
        <p>{t('wizard.code.not_issued')}</p>
      )}
      <p className="form-note">{t('wizard.code.shown_once')}</p>
      <Button onClick={() => void reissue()} loading={report.isPending}>
        {code ? t('wizard.code.reissue') : t('wizard.code.issue')}
      </Button>
      {report.error ? <AdminErrorAlert error={report.error} title={t('wizard.code.failed')} className="after-form" /> : null}
    </>
  );
}

function StepList({ step }: { step: WizardStep }) {
  const { t } = useTranslation('admin');
  const index = WIZARD_STEPS.indexOf(step);
  return (
    <ol className="wizard-steps" aria-label={t('wizard.steps_label')}>
      {WIZARD_STEPS.filter((s) => s !== 'done').map((s, i) => {
        const state = step === 'done' || i < index ? 'done' : i === index ? 'current' : 'upcoming';
        return (
          <li key={s} className={`wizard-steps__item wizard-steps__item--${state}`} aria-current={state === 'current' ? 'step' : undefined}>
            <span className="wizard-steps__name">{t(`wizard.step.${s}`)}</span>
            <span className="visually-hidden"> ({t(`wizard.state.${state}`)})</span>
          </li>
        );
      })}
    </ol>
  );
}

function Wizard({ upn, detail, progress }: { upn: string; detail: AdminUserDetail; progress: AdminLostDeviceProgress }) {
  const { t, i18n } = useTranslation('admin');
  const { user } = useUser();
  const key = storageKey(user?.upn ?? '', upn);
  const [stored, setStored] = useState<StoredWizard>(() => readStored(key));
  const [issued, setIssuedState] = useState<AdminLostDeviceResponse | null>(null);
  // The code just issued stays on screen (step 3) until the caller moves on; never stored.
  const [codeOnScreen, setCodeOnScreen] = useState(false);
  const setIssued = (r: AdminLostDeviceResponse) => {
    setIssuedState(r);
    setCodeOnScreen(true);
  };
  const progressQuery = useLostDeviceProgress(upn);
  const store = (next: StoredWizard) => {
    writeStored(key, next);
    setStored(next);
  };
  const kase = currentCase(progress, stored);
  const step = currentStep(progress, stored, codeOnScreen);
  const language = i18n.resolvedLanguage;
  const enrolmentUrl = issued?.enrolmentUrl ?? new URL(underBase('/'), window.location.href).href;
  const headingId = `wizard-${step}-heading`;

  return (
    <>
      <StepList step={step} />
      {kase && kase.actorUpn && kase.actorUpn !== user?.upn.toLowerCase() ? (
        <Alert role="note" type="info" showIcon title={t('wizard.colleague', { who: kase.actorUpn })} className="before-list" />
      ) : null}
      {kase && step !== 'done' ? (
        <p className="form-note">
          {t('wizard.case_summary', {
            name: kase.removedDevice.name ?? t('verify.a_device'),
            time: formatDate(kase.removedDevice.removedAt, language, true),
            ticket: kase.ticket ?? '–',
          })}
        </p>
      ) : null}

      {step === 'code' && issued && codeOnScreen ? (
        <NewCodesPanel
          result={{ codes: [{ ...issued.bypassCode }], replaced: 0 }}
          owner={upn}
          title={t('wizard.code.title', { upn })}
          onceBody={t('wizard.code.once_body')}
          doneLabel={t('wizard.code.continue')}
          onDone={() => setCodeOnScreen(false)}
        >
          <p>{issued.deviceRemoved ? t('wizard.code.removed_now') : t('wizard.code.removed_before')}</p>
        </NewCodesPanel>
      ) : (
        <section className="section wizard-step" aria-labelledby={headingId}>
          <h2 id={headingId}>{t(`wizard.heading.${step}`)}</h2>
          {step === 'verify' ? (
            <>
              <p>{t('wizard.verify.intro')}</p>
              <VerifyIdentityPanel
                upn={upn}
                devices={detail.mfa.devices}
                identityCheck={progress.identityCheck}
                disabledReason={null}
                formName="wizard-verify"
                pushDeviceHelp={t('wizard.verify.push_help')}
              />
              <div className="other-way">
                <p className="form-note">{t('wizard.verify.other_way_intro')}</p>
                <Button onClick={() => store({ ...stored, verifiedOtherWay: true })}>{t('wizard.verify.other_way')}</Button>
              </div>
            </>
          ) : null}
          {step === 'remove' ? (
            <RemoveStep
              upn={upn}
              detail={detail}
              verifiedOtherWay={!!stored.verifiedOtherWay && !progress.identityCheck}
              onIssued={setIssued}
            />
          ) : null}
          {step === 'code' && kase ? <CodeSummary upn={upn} kase={kase} onIssued={setIssued} /> : null}
          {step === 'enrol' && kase ? (
            <>
              <p>{t('wizard.enrol.intro', { upn })}</p>
              <ol className="guide">
                <li>
                  {t('wizard.enrol.open')} <code className="activation-link">{enrolmentUrl}</code>{' '}
                  <CopyButton text={enrolmentUrl} label={t('activation.copy')} />
                </li>
                <li>{t('wizard.enrol.sign_in')}</li>
                <li>{t('wizard.enrol.add')}</li>
              </ol>
              <CodeSummary upn={upn} kase={kase} onIssued={setIssued} />
              <div className="actions">
                <Button type="primary" onClick={() => void progressQuery.refetch()} loading={progressQuery.isFetching}>
                  {progressQuery.isFetching ? t('wizard.enrol.checking') : t('wizard.enrol.check')}
                </Button>
              </div>
              <p role="status" className="form-note">
                {progressQuery.isFetching ? '' : t('wizard.enrol.none_yet')}
              </p>
            </>
          ) : null}
          {step === 'test' && kase ? (
            <>
              <p>{t('wizard.test.intro', { names: kase.newDevices.map((d) => d.name).join(', ') })}</p>
              <VerifyIdentityPanel
                upn={upn}
                devices={kase.newDevices}
                identityCheck={null}
                disabledReason={null}
                formName="wizard-test"
                showLastCheck={false}
                // The server counts a code of the new device as its test (an mfa.verify event), not a push.
                offerPush={false}
              />
            </>
          ) : null}
          {step === 'done' && kase ? (
            <>
              <div className="success-box" role="status">
                <span className="success-box__mark" aria-hidden="true">
                  ✓
                </span>
                <div>
                  <p className="success-box__title">{t('wizard.done.title')}</p>
                  <p>
                    {t('wizard.done.body', {
                      lost: kase.removedDevice.name ?? t('verify.a_device'),
                      added: kase.newDevices.find((d) => d.id === kase.tested?.deviceId)?.name ?? t('verify.a_device'),
                      time: formatDate(kase.tested?.testedAt ?? kase.startedAt, language, true),
                    })}
                  </p>
                </div>
              </div>
              <div className="actions">
                <Link className="button button--primary" to={ADMIN_ROUTES.user(upn)}>
                  {t('wizard.back_to_user')}
                </Link>
                <Button onClick={() => store({ ignoreCasesBefore: new Date().toISOString() })}>{t('wizard.done.new_case')}</Button>
              </div>
            </>
          ) : null}
        </section>
      )}
    </>
  );
}

/**
 * The lost-device wizard: verify the caller → remove the lost device → one single-use bypass code
 * valid at most 24 hours → guide them to enrol a new device → test it. Each step is an audit event on
 * the server, which also tells the wizard where it stands (see lost-device/wizard-state.ts).
 */
export function LostDevicePage() {
  const { t } = useTranslation('admin');
  const upn = (useParams().upn ?? '').toLowerCase();
  const detail = useAdminUser(upn);
  const allowed = detail.data ? detail.data.actions.delete_device.allowed && detail.data.actions.create_bypass_codes.allowed : false;
  const progress = useLostDeviceProgress(upn, { enabled: allowed });
  const title = t('wizard.title', { name: detail.data?.user.displayName || upn });
  const back = (
    <p className="after-alert">
      <Link to={ADMIN_ROUTES.user(upn)}>{t('wizard.back_to_user')}</Link>
    </p>
  );
  if (detail.isError)
    return (
      <Page title={title}>
        <AdminErrorAlert error={detail.error} title={t('user.failed', { upn })} onRetry={() => void detail.refetch()} />
        {back}
      </Page>
    );
  if (detail.data && !allowed) {
    const reason = detail.data.actions.delete_device.reason ?? detail.data.actions.create_bypass_codes.reason;
    return (
      <Page title={title}>
        <Alert
          role="note"
          type="warning"
          showIcon
          title={t('user.blocked_title')}
          description={isDenyReason(reason) ? t(`deny.${reason}`) : t('deny.unknown')}
        />
        {back}
      </Page>
    );
  }
  return (
    <Page title={title} intro={<p>{t('wizard.intro')}</p>} className="wizard">
      {detail.isPending || progress.isPending ? (
        <Loading label={t('wizard.loading')} />
      ) : progress.isError ? (
        <AdminErrorAlert error={progress.error} title={t('wizard.failed')} onRetry={() => void progress.refetch()} />
      ) : (
        <Wizard upn={upn} detail={detail.data} progress={progress.data} />
      )}
      {back}
    </Page>
  );
}
