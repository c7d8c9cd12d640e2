import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Button } from 'antd';
import type { AdminLostDeviceProgress, AdminLostDeviceResponse, AdminUserDetail } from '@mfa-portal/shared';
import { useUser } from '../../../shell/contexts';
import { underBase } from '../../../shell/base-path';
import { NewCodesPanel } from '../../../lib/bypass-codes/NewCodesPanel';
import { useDeviceLabels } from '../../../lib/devices/device-labels';
import { ADMIN_ROUTES } from '../../../lib/main-routes';
import { CopyButton } from '../../../lib/ui/CopyButton';
import { formatDate } from '../../../lib/ui/format';
import { useLostDeviceProgress } from '../api/lost-device';
import { useJustificationMemory } from '../components/justification-memory';
import { VerifyIdentityPanel } from '../components/VerifyIdentityPanel';
import { CodeSummary } from './CodeSummary';
import { RemoveStep } from './RemoveStep';
import { SignOutEverywhere } from './SignOutEverywhere';
import {
  currentCase,
  currentStep,
  readStored,
  storageKey,
  WIZARD_STEPS,
  writeStored,
  type StoredWizard,
  type WizardStep,
} from './wizard-state';

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

/** The wizard's steps for one user: where it stands comes from the server's progress and this tab's storage. */
export function Wizard({ upn, detail, progress }: { upn: string; detail: AdminUserDetail; progress: AdminLostDeviceProgress }) {
  const { t, i18n } = useTranslation('admin');
  const { user } = useUser();
  const { label } = useDeviceLabels();
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
  const memory = useJustificationMemory();
  // A check made here is recorded with the call's ticket, when one was typed.
  const prepare = () => Promise.resolve(memory.last?.ticket ? { ticket: memory.last.ticket } : {});
  const store = (next: StoredWizard) => {
    writeStored(key, next);
    setStored(next);
  };
  const kase = currentCase(progress, stored);
  const step = currentStep(progress, stored, codeOnScreen);
  const language = i18n.resolvedLanguage;
  const testedName = (device: AdminUserDetail['mfa']['devices'][number] | undefined) => (device ? label(device) : t('verify.a_device'));
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
                prepare={prepare}
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
              <p>{t('wizard.test.intro', { names: kase.newDevices.map(label).join(', ') })}</p>
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
                      added: testedName(kase.newDevices.find((d) => d.id === kase.tested?.deviceId)),
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
      {step !== 'done' && !(step === 'code' && codeOnScreen) ? <SignOutEverywhere upn={upn} /> : null}
    </>
  );
}
