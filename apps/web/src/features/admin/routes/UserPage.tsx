import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Alert } from 'antd';
import type { AdminActivationResponse, AdminUserDetail, CreateBypassCodesResponse, Device } from '@mfa-portal/shared';
import { NewCodesPanel } from '../../../lib/bypass-codes/NewCodesPanel';
import { CopyButton } from '../../../lib/ui/CopyButton';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useAdminUser } from '../api/get-user';
import { useLostDeviceProgress } from '../api/lost-device';
import { ActivationDialog, UnlockDialog } from '../components/AccountDialogs';
import { AccountLifecyclePanel } from '../components/AccountLifecyclePanel';
import { EventTable } from '../components/EventTable';
import { GatedButton, useActionGate } from '../components/GatedButton';
import { IssueBypassCodesDialog } from '../components/IssueBypassCodesDialog';
import { JustificationMemory } from '../components/justification-memory';
import { UserBypassCodesSection } from '../components/UserBypassCodesSection';
import { RemoveUserDeviceDialog, ResyncUserTokenDialog } from '../components/UserDeviceDialogs';
import { UserDevicesSection } from '../components/UserDevicesSection';
import { UserFacts } from '../components/UserFacts';
import { UserUnavailable } from '../components/UserUnavailable';
import { ManualVerificationForm, VerificationInForce } from '../components/VerificationInForce';
import { VerifyIdentityPanel } from '../components/VerifyIdentityPanel';

type Dialog =
  | { kind: 'remove'; device: Device }
  | { kind: 'resync'; device: Device }
  | { kind: 'issue' }
  | { kind: 'unlock' }
  | { kind: 'activation' }
  | null;

/** The page of a user who may be shown: the sections, the dialogs they open, and the codes just issued. */
function UserDetailView({ upn, detail }: { upn: string; detail: AdminUserDetail }) {
  const { t } = useTranslation(['admin', 'main', 'bypass-codes']);
  const gate = useActionGate(detail);
  const progress = useLostDeviceProgress(upn, { enabled: detail.actions.verify_identity.allowed });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [created, setCreated] = useState<CreateBypassCodesResponse | null>(null);
  const [activation, setActivation] = useState<AdminActivationResponse | null>(null);
  const close = () => setDialog(null);
  const { mfa } = detail;
  const name = detail.user.displayName || detail.user.upn;
  const devices = mfa.devices;
  const notProvisioned = mfa.status === 'not_provisioned';
  // Verify, then issue: these actions wait for the caller's recent verification of this person.
  const verifyFirst = detail.verification.required && !detail.verification.current ? t('admin:verify_first.locked') : null;
  const deleteGate = gate('delete_device') ?? verifyFirst;
  const resyncGate = gate('resync_token') ?? verifyFirst;
  const issueGate = gate('create_bypass_codes') ?? verifyFirst;
  const unlockGate = gate('unlock');
  const activationGate = gate('send_activation');
  // The wizard has its own verification step.
  const lostGate = gate('delete_device') ?? gate('create_bypass_codes');
  const anyBlocked = [gate('delete_device'), gate('resync_token'), gate('create_bypass_codes'), unlockGate, activationGate]
    .concat(gate('verify_identity'))
    .find((r) => r !== null);
  const verifyFirstNote = verifyFirst ? (
    <p className="form-note">
      <a href="#verify-heading">{t('admin:verify_first.step_link')}</a> {verifyFirst}
    </p>
  ) : null;

  return (
    <Page title={name} intro={<UserFacts detail={detail} />} className="admin-user">
      {created ? (
        <NewCodesPanel
          result={created}
          owner={upn}
          title={t('admin:issue.new_title', { count: created.codes.length, upn })}
          onceBody={t('admin:issue.once_body')}
          doneLabel={t('admin:issue.done')}
          onDone={() => setCreated(null)}
        />
      ) : null}
      {detail.protection.protected ? (
        <Alert
          role="note"
          type="info"
          showIcon
          title={t('admin:user.protected_title')}
          description={
            detail.protection.reason === 'roles_unknown' ? t('admin:user.protected_unknown_body') : t('admin:user.protected_body')
          }
          className="before-list"
        />
      ) : null}
      {anyBlocked ? (
        <Alert role="note" type="warning" showIcon title={t('admin:user.blocked_title')} description={anyBlocked} className="before-list" />
      ) : null}

      <section className="section" aria-labelledby="status-heading">
        <h2 id="status-heading">{t('admin:user.status_heading')}</h2>
        <p>
          <span className={`status-badge status-badge--${mfa.status}`}>{t(`main:status.label.${mfa.status}`)}</span>{' '}
          {t(`admin:user.status_explanation.${mfa.status}`)}
        </p>
        {mfa.statusReason ? <p>{t('admin:user.status_reason', { reason: mfa.statusReason })}</p> : null}
        {mfa.status === 'locked_out' ? (
          <div className="actions">
            <GatedButton reason={unlockGate} onClick={() => setDialog({ kind: 'unlock' })} label={t('admin:unlock.open')} primary />
          </div>
        ) : null}
      </section>

      <AccountLifecyclePanel upn={upn} detail={detail} gate={gate} verifyFirst={verifyFirst} />

      <section className="section" aria-labelledby="verify-heading">
        <h2 id="verify-heading" tabIndex={-1}>
          {t('admin:verify.heading')}
        </h2>
        <p className="section-intro">{t('admin:verify.intro')}</p>
        {gate('verify_identity') ? null : <VerificationInForce state={detail.verification} />}
        <VerifyIdentityPanel
          upn={upn}
          devices={devices}
          identityCheck={progress.data?.identityCheck}
          disabledReason={gate('verify_identity')}
        />
        {gate('verify_identity') ? null : (
          <section className="verify-way" aria-labelledby="verify-manual-heading">
            <h3 id="verify-manual-heading" className="verify-way__title">
              {t('admin:verify_first.manual_heading')}
            </h3>
            <ManualVerificationForm upn={upn} />
          </section>
        )}
      </section>

      <UserDevicesSection
        upn={upn}
        devices={devices}
        lostGate={lostGate}
        deleteGate={deleteGate}
        resyncGate={resyncGate}
        verifyFirstNote={verifyFirstNote}
        onRemove={(device) => setDialog({ kind: 'remove', device })}
        onResync={(device) => setDialog({ kind: 'resync', device })}
      />

      <UserBypassCodesSection
        codes={detail.bypassCodes}
        notProvisioned={notProvisioned}
        issueGate={issueGate}
        verifyFirstNote={verifyFirstNote}
        onIssue={() => setDialog({ kind: 'issue' })}
      />

      <section className="section" aria-labelledby="enrol-heading">
        <h2 id="enrol-heading">{t('admin:activation.heading')}</h2>
        <p className="section-intro">{t('admin:activation.intro')}</p>
        {activation ? (
          <div className="panel activation-result" role="status">
            <p>{t('admin:activation.result', { upn })}</p>
            <p>
              <code className="activation-link">{activation.activationUrl}</code>
            </p>
            <CopyButton text={activation.activationUrl} label={t('admin:activation.copy')} />
          </div>
        ) : null}
        {notProvisioned ? (
          <p>{t('admin:activation.not_provisioned')}</p>
        ) : (
          <div className="actions">
            <GatedButton reason={activationGate} onClick={() => setDialog({ kind: 'activation' })} label={t('admin:activation.open')} />
          </div>
        )}
      </section>

      <section className="section" aria-labelledby="activity-heading">
        <h2 id="activity-heading">{t('admin:user.activity_heading')}</h2>
        {detail.activity.length === 0 ? (
          <p>{t('admin:user.activity_empty')}</p>
        ) : (
          <EventTable events={detail.activity} caption={t('admin:user.activity_caption', { upn })} showTarget />
        )}
      </section>

      {dialog?.kind === 'remove' ? (
        <RemoveUserDeviceDialog upn={upn} device={dialog.device} isOnlyDevice={devices.length === 1} onClose={close} />
      ) : null}
      {dialog?.kind === 'resync' ? <ResyncUserTokenDialog upn={upn} device={dialog.device} onClose={close} /> : null}
      {dialog?.kind === 'issue' ? (
        <IssueBypassCodesDialog upn={upn} liveCount={detail.bypassCodes.length} onClose={close} onCreated={setCreated} />
      ) : null}
      {dialog?.kind === 'unlock' ? <UnlockDialog upn={upn} statusReason={mfa.statusReason} onClose={close} /> : null}
      {dialog?.kind === 'activation' ? <ActivationDialog upn={upn} onClose={close} onSent={setActivation} /> : null}
    </Page>
  );
}

/** One user, as an administrator sees them: status, identity check, devices, bypass codes, enrolment, activity. */
export function UserPage() {
  const { t } = useTranslation('admin');
  const upn = (useParams().upn ?? '').toLowerCase();
  const detail = useAdminUser(upn);
  if (detail.isPending)
    return (
      <Page title={upn}>
        <Loading label={t('user.loading')} />
      </Page>
    );
  if (detail.isError)
    return (
      <Page title={upn}>
        <UserUnavailable upn={upn} error={detail.error} onRetry={() => void detail.refetch()} />
      </Page>
    );
  return (
    <JustificationMemory key={upn}>
      <UserDetailView upn={upn} detail={detail.data} />
    </JustificationMemory>
  );
}
