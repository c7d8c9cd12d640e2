import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServiceDeskContact } from '../../../shell/components/ServiceDeskContact';
import { Link } from 'react-router';
import { Alert, Button, Checkbox, Form, Input, Radio } from 'antd';
import { type CreateBypassCodesResponse } from '@mfa-portal/shared';
import { useUser } from '../../../shell/contexts';
import { NewCodesPanel } from '../../../lib/bypass-codes/NewCodesPanel';
import { MAIN_ROUTES } from '../../../lib/main-routes';
import { stepUpOutcome, useEnsureStepUp } from '../../../lib/step-up/step-up';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { Loading } from '../../../lib/ui/Loading';
import { NativeSelect } from '../../../lib/ui/NativeSelect';
import { Page } from '../../../lib/ui/Page';
import { normaliseOtp, OTP_INPUT_PROPS, otpRules } from '../../../lib/ui/otp';
import { useCreateBypassCodes } from '../../../lib/bypass-codes/api/create-bypass-codes';
import { useDeleteDevice } from '../../../lib/devices/api/delete-device';
import { useDevices } from '../../../lib/devices/api/get-devices';
import { useTestDevice } from '../../../lib/devices/api/test-device';
import {
  newDevicesOf,
  readSelfState,
  selfStep,
  SELF_STEPS,
  selfStorageKey,
  writeSelfState,
  type SelfLostDeviceState,
} from '../lost-device-state';

/** The one code of this wizard: single use, valid a day (the longest a lost-device code may live). */
const LOST_CODE = { count: 1, validitySeconds: 24 * 60 * 60, reuseCount: 1, replaceExisting: false } as const;

/**
 * Lost a device but can still sign in (with another device or a bypass code): confirm it is you →
 * remove the lost device → one single-use bypass code valid 24 hours (for the next sign-ins until the
 * new device works) → add a new device → test it. The same steps as the service desk's wizard, made
 * of the self-service API; progress is kept per user in this tab (see lost-device-state.ts), the
 * devices come from the server.
 */
export function LostDevicePage() {
  const { t } = useTranslation(['devices', 'app']);
  const { user } = useUser();
  const key = selfStorageKey(user?.upn ?? '');
  const [state, setState] = useState<SelfLostDeviceState>(() => readSelfState(key));
  const save = (next: SelfLostDeviceState) => {
    writeSelfState(key, next);
    setState(next);
  };
  const devicesQuery = useDevices();
  const devices = devicesQuery.data ?? [];
  // Coming back (e.g. from adding the new device elsewhere): ask the server for the devices now.
  const { refetch } = devicesQuery;
  useEffect(() => {
    void refetch();
  }, [refetch]);
  // A step-up this session earned a moment ago (e.g. removing a device on the overview) counts here too.
  const ensureStepUp = useEnsureStepUp();
  const remove = useDeleteDevice();
  const create = useCreateBypassCodes();
  const test = useTestDevice();
  const [code, setCode] = useState<CreateBypassCodesResponse | null>(null);
  const [understood, setUnderstood] = useState(false);
  const [removeForm] = Form.useForm<{ deviceId: string }>();
  const [testForm] = Form.useForm<{ deviceId: string; code: string }>();
  const step = selfStep(state, devices);
  const added = newDevicesOf(state, devices);

  if (devicesQuery.isPending) {
    return (
      <Page title={t('lost.title')}>
        <Loading label={t('lost.loading')} />
      </Page>
    );
  }
  const only = devices.length === 1;
  // Closing "Confirm it's you" is no error here: the step simply stays open.
  const removeError = stepUpOutcome(remove).error;
  const createError = stepUpOutcome(create).error;

  return (
    <Page
      title={t('lost.title')}
      intro={
        <>
          <p>{t('lost.intro')}</p>
          <ServiceDeskContact />
        </>
      }
      className="self-lost-device"
    >
      <ol className="wizard-steps" aria-label={t('lost.steps_label')}>
        {SELF_STEPS.map((s, i) => {
          const index = step === 'done' ? SELF_STEPS.length : SELF_STEPS.indexOf(step);
          const status = i < index ? 'done' : i === index ? 'current' : 'upcoming';
          return (
            <li
              key={s}
              className={`wizard-steps__item wizard-steps__item--${status}`}
              aria-current={status === 'current' ? 'step' : undefined}
            >
              {t(`lost.step.${s}`)}
              <span className="visually-hidden"> ({t(`lost.state.${status}`)})</span>
            </li>
          );
        })}
      </ol>

      {code ? (
        <NewCodesPanel result={code} owner={user?.upn ?? ''} onDone={() => setCode(null)} doneLabel={t('lost.code.continue')} />
      ) : (
        <section className="section wizard-step" aria-labelledby="self-lost-heading">
          <h2 id="self-lost-heading">{t(`lost.heading.${step}`)}</h2>
          {step === 'verify' ? (
            <>
              <p>{t('lost.verify.intro')}</p>
              <Button
                type="primary"
                onClick={() =>
                  void ensureStepUp().then((ok) => {
                    if (ok) save({ verifiedAt: new Date().toISOString() });
                  })
                }
              >
                {t('lost.verify.submit')}
              </Button>
            </>
          ) : null}

          {step === 'remove' ? (
            devices.length === 0 ? (
              <p>{t('lost.remove.none')}</p>
            ) : (
              <Form
                name="self-lost-remove"
                form={removeForm}
                layout="vertical"
                requiredMark={false}
                onFinish={({ deviceId }) => {
                  const device = devices.find((d) => d.id === deviceId);
                  if (!device) return;
                  remove.mutate(
                    { deviceId, confirmLastDevice: only && understood },
                    { onSuccess: () => save({ ...state, removed: { id: device.id, name: device.name, at: new Date().toISOString() } }) },
                  );
                }}
              >
                <p>{t('lost.remove.intro')}</p>
                <Form.Item
                  name="deviceId"
                  label={t('lost.remove.device_label')}
                  rules={[{ required: true, message: t('lost.remove.device_required') }]}
                >
                  <Radio.Group className="radio-list">
                    {devices.map((d) => (
                      <Radio key={d.id} value={d.id}>
                        {d.name}
                      </Radio>
                    ))}
                  </Radio.Group>
                </Form.Item>
                {only ? (
                  <>
                    <Alert type="warning" showIcon title={t('lost.remove.last_title')} description={t('lost.remove.last_body')} />
                    <Checkbox checked={understood} onChange={(e) => setUnderstood(e.target.checked)} className="dialog-paragraph">
                      {t('remove.last_acknowledge')}
                    </Checkbox>
                  </>
                ) : null}
                <Button type="primary" danger htmlType="submit" loading={remove.isPending} disabled={only && !understood}>
                  {remove.isPending ? t('remove.removing') : t('lost.remove.submit')}
                </Button>
                {removeError ? <ErrorAlert error={removeError} title={t('remove.failed')} className="after-form" /> : null}
              </Form>
            )
          ) : null}

          {step === 'code' ? (
            <>
              <p>{t('lost.code.intro')}</p>
              <Button
                type="primary"
                loading={create.isPending}
                onClick={() =>
                  create.mutate(LOST_CODE, {
                    onSuccess: (result) => {
                      setCode(result);
                      save({ ...state, codeIssuedAt: new Date().toISOString() });
                    },
                  })
                }
              >
                {t('lost.code.submit')}
              </Button>{' '}
              <Button onClick={() => save({ ...state, codeIssuedAt: new Date().toISOString() })}>{t('lost.code.skip')}</Button>
              {createError ? <ErrorAlert error={createError} title={t('lost.code.failed')} className="after-form" /> : null}
            </>
          ) : null}

          {step === 'enrol' ? (
            <>
              <p>{t('lost.enrol.intro')}</p>
              <div className="actions">
                <Link className="button button--primary" to={MAIN_ROUTES.addAuthenticator} state={{ returnTo: MAIN_ROUTES.lostDevice }}>
                  {t('lost.enrol.authenticator')}
                </Link>
                <Link className="button" to={MAIN_ROUTES.addToken} state={{ returnTo: MAIN_ROUTES.lostDevice }}>
                  {t('lost.enrol.token')}
                </Link>
              </div>
            </>
          ) : null}

          {step === 'test' ? (
            <Form
              name="self-lost-test"
              form={testForm}
              layout="vertical"
              requiredMark={false}
              initialValues={{ deviceId: added[0]?.id }}
              onFinish={(v) =>
                test.mutate(
                  { deviceId: v.deviceId, code: normaliseOtp(v.code) },
                  { onSuccess: () => save({ ...state, testedDeviceId: v.deviceId }) },
                )
              }
              className="narrow-form"
            >
              <p>{t('lost.test.intro')}</p>
              <Form.Item name="deviceId" label={t('lost.test.device_label')}>
                <NativeSelect options={added.map((d) => ({ value: d.id, label: d.name }))} />
              </Form.Item>
              <Form.Item name="code" label={t('test.code_label')} rules={otpRules(t)}>
                <Input {...OTP_INPUT_PROPS} />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={test.isPending}>
                {test.isPending ? t('test.checking') : t('test.submit')}
              </Button>
              {test.error ? <ErrorAlert error={test.error} title={t('test.failure_title')} className="after-form" /> : null}
            </Form>
          ) : null}

          {step === 'done' ? (
            <>
              <div className="success-box" role="status">
                <span className="success-box__mark" aria-hidden="true">
                  ✓
                </span>
                <div>
                  <p className="success-box__title">{t('lost.done.title')}</p>
                  <p>
                    {t('lost.done.body', {
                      lost: state.removed?.name ?? '',
                      added: added.find((d) => d.id === state.testedDeviceId)?.name ?? '',
                    })}
                  </p>
                </div>
              </div>
              <div className="actions">
                <Link className="button button--primary" to={MAIN_ROUTES.overview}>
                  {t('lost.done.overview')}
                </Link>
                <Button onClick={() => save({})}>{t('lost.done.again')}</Button>
              </div>
            </>
          ) : null}
        </section>
      )}
    </Page>
  );
}
