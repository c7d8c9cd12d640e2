import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Alert, Button } from 'antd';
import type { AdminActivationResponse, AdminUserActionName, AdminUserDetail, CreateBypassCodesResponse, Device } from '@mfa-portal/shared';
import { NewCodesPanel } from '../../../lib/bypass-codes/NewCodesPanel';
import { ADMIN_ROUTES, MAIN_ROUTES } from '../../../lib/routes';
import { CopyButton } from '../../../lib/ui/CopyButton';
import { formatDate } from '../../../lib/ui/format';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useAdminUser } from '../api/get-user';
import { useLostDeviceProgress } from '../api/lost-device';
import { ActivationDialog, UnlockDialog } from '../components/AccountDialogs';
import { AccountLifecyclePanel } from '../components/AccountLifecyclePanel';
import { AdminErrorAlert } from '../components/AdminErrorAlert';
import { denyReasonOf, isDenyReason } from '../components/admin-errors';
import { EventTable } from '../components/EventTable';
import { IssueBypassCodesDialog } from '../components/IssueBypassCodesDialog';
import { JustificationMemory } from '../components/justification-memory';
import { RemoveUserDeviceDialog, ResyncUserTokenDialog } from '../components/UserDeviceDialogs';
import { ManualVerificationForm, VerificationInForce } from '../components/VerificationInForce';
import { VerifyIdentityPanel } from '../components/VerifyIdentityPanel';

type Dialog =
  | { kind: 'remove'; device: Device }
  | { kind: 'resync'; device: Device }
  | { kind: 'issue' }
  | { kind: 'unlock' }
  | { kind: 'activation' }
  | null;

/** Whether the caller may do `name` here, and if not, why (translated). */
function useActionGate(detail: AdminUserDetail) {
  const { t } = useTranslation('admin');
  return (name: AdminUserActionName): string | null => {
    const action = detail.actions[name];
    if (action?.allowed !== false) return null;
    return isDenyReason(action.reason) ? t(`deny.${action.reason}`) : t('deny.unknown');
  };
}

/** A button for an action the policy may refuse: disabled when it does (the page's note above says why). */
function GatedButton({
  reason,
  onClick,
  label,
  ariaLabel,
  danger,
  primary,
}: {
  reason: string | null;
  onClick: () => void;
  label: string;
  ariaLabel?: string;
  danger?: boolean;
  primary?: boolean;
}) {
  return (
    <Button onClick={onClick} disabled={reason !== null} aria-label={ariaLabel} danger={danger} type={primary ? 'primary' : 'default'}>
      {label}
    </Button>
  );
}

function Facts({ detail }: { detail: AdminUserDetail }) {
  const { t, i18n } = useTranslation('admin');
  const { user } = detail;
  return (
    <dl className="facts admin-facts">
      <div>
        <dt>{t('user.upn')}</dt>
        <dd>{user.upn}</dd>
      </div>
      <div>
        <dt>{t('user.email')}</dt>
        <dd>{user.email || '–'}</dd>
      </div>
      <div>
        <dt>{t('user.roles')}</dt>
        <dd>{user.roles === null ? t('user.roles_unknown') : user.roles.length ? user.roles.join(', ') : t('user.roles_none')}</dd>
      </div>
      <div>
        <dt>{t('user.last_seen')}</dt>
        <dd>{user.lastSeenAt ? formatDate(user.lastSeenAt, i18n.resolvedLanguage, true) : t('user.never_seen')}</dd>
      </div>
    </dl>
  );
}

function UserDetailView({ upn, detail }: { upn: string; detail: AdminUserDetail }) {
  const { t, i18n } = useTranslation(['admin', 'main', 'bypass-codes']);
  const language = i18n.resolvedLanguage;
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
  // Verify, then issue (issue 14): these actions wait for the caller's recent verification of this person.
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
    <Page title={name} intro={<Facts detail={detail} />} className="admin-user">
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

      <section className="section" aria-labelledby="devices-heading">
        <div className="section__header">
          <h2 id="devices-heading">{t('admin:devices.heading')}</h2>
          {lostGate || devices.length === 0 ? null : (
            <Link className="button" to={ADMIN_ROUTES.lostDevice(upn)}>
              {t('admin:devices.lost_device')}
            </Link>
          )}
        </div>
        {devices.length > 0 ? verifyFirstNote : null}
        {devices.length === 0 ? (
          <div className="empty-state">
            <p className="empty-state__title">{t('admin:devices.empty_title')}</p>
            <p>{t('admin:devices.empty_body')}</p>
          </div>
        ) : (
          <ul className="admin-device-list">
            {devices.map((device) => (
              <li key={device.id} className="admin-device">
                <div>
                  <p className="admin-device__name">{device.name}</p>
                  <p className="admin-device__facts">
                    {t(`main:devices.kind.${device.kind}`)}
                    {device.serial ? ` · ${device.tokenType ? `${device.tokenType} ${device.serial}` : device.serial}` : ''}
                    {device.phoneNumber ? ` · ${device.phoneNumber}` : ''}
                    {' · '}
                    {t('admin:devices.added', { date: formatDate(device.createdAt, language) })}
                    {' · '}
                    {device.lastUsedAt
                      ? t('admin:devices.last_used', { date: formatDate(device.lastUsedAt, language, true) })
                      : t('admin:devices.never_used')}
                  </p>
                </div>
                <div className="device-actions">
                  {device.kind === 'hardware_token' ? (
                    <GatedButton
                      reason={resyncGate}
                      onClick={() => setDialog({ kind: 'resync', device })}
                      label={t('admin:devices.resync')}
                      ariaLabel={t('admin:devices.resync_named', { name: device.name })}
                    />
                  ) : null}
                  <GatedButton
                    reason={deleteGate}
                    onClick={() => setDialog({ kind: 'remove', device })}
                    label={t('admin:devices.remove')}
                    ariaLabel={t('admin:devices.remove_named', { name: device.name })}
                    danger
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="section" aria-labelledby="codes-heading">
        <div className="section__header">
          <h2 id="codes-heading">{t('admin:codes.heading')}</h2>
          {notProvisioned ? null : (
            <GatedButton reason={issueGate} onClick={() => setDialog({ kind: 'issue' })} label={t('admin:issue.open')} primary />
          )}
        </div>
        {notProvisioned ? null : verifyFirstNote}
        {detail.bypassCodes.length === 0 ? (
          <p>{t('admin:codes.none')}</p>
        ) : (
          <div className="table-wrap" role="region" aria-label={t('admin:codes.table_label')} tabIndex={0}>
            <table className="data-table">
              <caption className="visually-hidden">{t('admin:codes.table_label')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('bypass-codes:list.created')}</th>
                  <th scope="col">{t('bypass-codes:list.expires')}</th>
                  <th scope="col">{t('bypass-codes:list.uses_left')}</th>
                  <th scope="col">{t('bypass-codes:list.created_by')}</th>
                </tr>
              </thead>
              <tbody>
                {detail.bypassCodes.map((code) => (
                  <tr key={code.id}>
                    <td>{formatDate(code.createdAt, language, true)}</td>
                    <td>{formatDate(code.expiresAt, language, true)}</td>
                    <td>
                      {code.usesLeft === null
                        ? t('bypass-codes:list.uses_unlimited')
                        : code.reuseCount
                          ? t('bypass-codes:list.uses_of', { left: code.usesLeft, total: code.reuseCount })
                          : code.usesLeft}
                    </td>
                    <td>{code.createdBy}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

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

/** Why the page cannot be shown: the caller's own account, a protected one, or no such user. */
function Unavailable({ upn, error, onRetry }: { upn: string; error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('admin');
  const reason = denyReasonOf(error);
  if (reason === 'own_account_via_admin') {
    return (
      <>
        <Alert role="note" type="info" showIcon title={t('user.own_title')} description={t('deny.own_account_via_admin')} />
        <p className="after-alert">
          <Link to={MAIN_ROUTES.overview}>{t('user.own_link')}</Link>
        </p>
      </>
    );
  }
  if (reason) {
    return (
      <>
        <Alert role="note" type="warning" showIcon title={t('user.refused_title')} description={t(`deny.${reason}`)} />
        <p className="after-alert">
          <Link to={ADMIN_ROUTES.users}>{t('user.back_to_search')}</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <AdminErrorAlert error={error} title={t('user.failed', { upn })} onRetry={onRetry} />
      <p className="after-alert">
        <Link to={ADMIN_ROUTES.users}>{t('user.back_to_search')}</Link>
      </p>
    </>
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
        <Unavailable upn={upn} error={detail.error} onRetry={() => void detail.refetch()} />
      </Page>
    );
  return (
    <JustificationMemory key={upn}>
      <UserDetailView upn={upn} detail={detail.data} />
    </JustificationMemory>
  );
}
