import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Alert } from 'antd';
import type {
  AdminActivationResponse,
  AdminUserDetail,
  CreateBypassCodesResponse,
  Device,
  IssueEnrolmentPassResponse,
} from '@mfa-portal/shared';
import { useUser } from '../../../shell/contexts';
import { NewCodesPanel } from '../../../lib/bypass-codes/NewCodesPanel';
import { ADMIN_ROUTES } from '../../../lib/main-routes';
import { CopyButton } from '../../../lib/ui/CopyButton';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useAdminUser } from '../api/get-user';
import { ActivationDialog, UnlockDialog } from '../components/AccountDialogs';
import { AccountLifecyclePanel } from '../components/AccountLifecyclePanel';
import { EnrolmentPassDialog, EnrolmentPassList, IssuedEnrolmentPass } from '../components/EnrolmentPasses';
import { GatedButton, useActionGate } from '../components/GatedButton';
import { IssueBypassCodesDialog } from '../components/IssueBypassCodesDialog';
import { callStorageKey, JustificationMemory } from '../components/justification-memory';
import { UserActivitySection } from '../components/UserActivitySection';
import { UserBypassCodesSection } from '../components/UserBypassCodesSection';
import { RemoveUserDeviceDialog, ResyncUserTokenDialog } from '../components/UserDeviceDialogs';
import { UserDevicesSection } from '../components/UserDevicesSection';
import { UserSummary } from '../components/UserSummary';
import { UserUnavailable } from '../components/UserUnavailable';
import { VerifyCallSection } from '../components/VerifyCallSection';

type Dialog =
  | { kind: 'remove'; device: Device }
  | { kind: 'resync'; device: Device }
  | { kind: 'issue' }
  | { kind: 'unlock' }
  | { kind: 'activation' }
  | { kind: 'issue_pass' }
  | null;

/**
 * When a verification made on this page comes into force, the actions it unlocked take the focus (their
 * heading), and the page scrolls so they are in view, the one-line verification just above them when it fits.
 */
function useFocusActionsOnVerification(verifiedAt: string | null) {
  const heading = useRef<HTMLHeadingElement>(null);
  const verify = useRef<HTMLElement>(null);
  const seen = useRef(verifiedAt);
  useEffect(() => {
    const fresh = verifiedAt !== null && verifiedAt !== seen.current;
    seen.current = verifiedAt;
    const target = heading.current;
    if (!fresh || !target) return;
    target.focus({ preventScroll: true });
    const top = target.getBoundingClientRect().top;
    // The heading and the first actions under it (about 12 rem) fit between the top and the bottom of the window?
    if (top >= 0 && top + 200 <= window.innerHeight) return;
    const section = verify.current;
    const useSection = section && section.getBoundingClientRect().height < window.innerHeight / 3;
    (useSection ? section : target).scrollIntoView?.({ block: 'start' });
  }, [verifiedAt]);
  return { heading, verify };
}

/** The call, top to bottom: who they are, verify them, act (beside their devices), their activity, then the account. */
function UserDetailView({ upn, detail, onExpired }: { upn: string; detail: AdminUserDetail; onExpired: () => void }) {
  const { t } = useTranslation(['admin', 'main', 'bypass-codes']);
  const gate = useActionGate(detail);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [created, setCreated] = useState<CreateBypassCodesResponse | null>(null);
  const [activation, setActivation] = useState<AdminActivationResponse | null>(null);
  const [pass, setPass] = useState<IssueEnrolmentPassResponse | null>(null);
  const close = () => setDialog(null);
  const { mfa, verification } = detail;
  const name = detail.user.displayName || detail.user.upn;
  const devices = mfa.devices;
  const notProvisioned = mfa.status === 'not_provisioned';
  const { heading, verify } = useFocusActionsOnVerification(verification.current?.verifiedAt ?? null);

  // When the verification runs out, the page asks again, and the guarded actions lock.
  const expiresAt = verification.current?.expiresAt;
  const expired = useRef(onExpired);
  expired.current = onExpired;
  useEffect(() => {
    if (!expiresAt) return;
    const timer = setTimeout(() => expired.current(), Math.max(0, Date.parse(expiresAt) - Date.now()) + 1000);
    return () => clearTimeout(timer);
  }, [expiresAt]);

  // Verify, then issue: these actions wait for the caller's recent verification of this person.
  const locked = verification.required && !verification.current;
  const lockedReason = locked ? t('admin:verify_first.locked') : null;
  const deleteGate = gate('delete_device') ?? lockedReason;
  const resyncGate = gate('resync_token') ?? lockedReason;
  const issueGate = gate('create_bypass_codes') ?? lockedReason;
  const passGate = gate('issue_enrolment_pass') ?? lockedReason;
  // The wizard has its own verification step.
  const lostGate = gate('delete_device') ?? gate('create_bypass_codes');
  const anyBlocked = [gate('delete_device'), gate('resync_token'), gate('create_bypass_codes'), gate('unlock'), gate('send_activation')]
    .concat(gate('verify_identity'))
    .find((r) => r !== null);

  const toolbar = (
    <>
      {notProvisioned ? null : (
        <GatedButton reason={issueGate} onClick={() => setDialog({ kind: 'issue' })} label={t('admin:issue.open')} primary />
      )}
      {notProvisioned ? null : (
        <>
          <GatedButton
            reason={gate('send_activation')}
            onClick={() => setDialog({ kind: 'activation' })}
            label={t('admin:activation.open')}
          />
          <GatedButton reason={passGate} onClick={() => setDialog({ kind: 'issue_pass' })} label={t('admin:lifecycle.issue_pass')} />
        </>
      )}
    </>
  );
  const results = (
    <>
      {notProvisioned ? <p>{t('admin:activation.not_provisioned')}</p> : null}
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
      {activation ? (
        <div className="panel activation-result" role="status">
          <p>{t('admin:activation.result', { upn })}</p>
          <p>
            <code className="activation-link">{activation.activationUrl}</code>
          </p>
          <CopyButton text={activation.activationUrl} label={t('admin:activation.copy')} />
        </div>
      ) : null}
      {pass ? <IssuedEnrolmentPass upn={upn} issued={pass} onDone={() => setPass(null)} /> : null}
    </>
  );

  return (
    <Page
      title={name}
      intro={<UserSummary detail={detail} unlockGate={gate('unlock')} onUnlock={() => setDialog({ kind: 'unlock' })} />}
      className="admin-user"
    >
      {detail.protection.protected ? (
        <Alert
          role="note"
          type="info"
          showIcon
          title={t('admin:user.protected_title')}
          description={
            detail.protection.reason === 'roles_unknown' ? t('admin:user.protected_unknown_body') : t('admin:user.protected_body')
          }
          className="after-alert"
        />
      ) : null}
      {anyBlocked ? (
        <Alert role="note" type="warning" showIcon title={t('admin:user.blocked_title')} description={anyBlocked} className="after-alert" />
      ) : null}

      <VerifyCallSection upn={upn} detail={detail} disabledReason={gate('verify_identity')} sectionRef={verify} />

      <UserDevicesSection
        devices={devices}
        locked={locked}
        deleteGate={deleteGate}
        resyncGate={resyncGate}
        headingRef={heading}
        headerAction={
          lostGate || devices.length === 0 ? null : (
            <Link className="button" to={ADMIN_ROUTES.lostDevice(upn)}>
              {t('admin:devices.lost_device')}
            </Link>
          )
        }
        toolbar={toolbar}
        results={results}
        onRemove={(device) => setDialog({ kind: 'remove', device })}
        onResync={(device) => setDialog({ kind: 'resync', device })}
      >
        {notProvisioned ? null : <UserBypassCodesSection codes={detail.bypassCodes} />}
        <EnrolmentPassList upn={upn} enabled={gate('issue_enrolment_pass') === null} />
      </UserDevicesSection>

      <UserActivitySection upn={upn} events={detail.activity} />

      <AccountLifecyclePanel upn={upn} detail={detail} gate={gate} />

      {dialog?.kind === 'remove' ? (
        <RemoveUserDeviceDialog upn={upn} device={dialog.device} isOnlyDevice={devices.length === 1} onClose={close} />
      ) : null}
      {dialog?.kind === 'resync' ? <ResyncUserTokenDialog upn={upn} device={dialog.device} onClose={close} /> : null}
      {dialog?.kind === 'issue' ? (
        <IssueBypassCodesDialog upn={upn} liveCount={detail.bypassCodes.length} onClose={close} onCreated={setCreated} />
      ) : null}
      {dialog?.kind === 'unlock' ? <UnlockDialog upn={upn} statusReason={mfa.statusReason} onClose={close} /> : null}
      {dialog?.kind === 'activation' ? <ActivationDialog upn={upn} onClose={close} onSent={setActivation} /> : null}
      {dialog?.kind === 'issue_pass' ? <EnrolmentPassDialog upn={upn} onClose={close} onIssued={setPass} /> : null}
    </Page>
  );
}

/** One user, as the service desk sees them during a call (see UserDetailView). */
export function UserPage() {
  const { t } = useTranslation('admin');
  const { user } = useUser();
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
  const { verification } = detail.data;
  return (
    <JustificationMemory
      key={upn}
      storageKey={callStorageKey(user?.upn ?? '', upn)}
      until={verification.current?.expiresAt ?? null}
      windowSeconds={verification.windowSeconds}
    >
      <UserDetailView upn={upn} detail={detail.data} onExpired={() => void detail.refetch()} />
    </JustificationMemory>
  );
}
