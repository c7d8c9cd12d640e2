import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServiceDeskContact } from '../../../shell/components/ServiceDeskContact';
import { Alert, Button, Checkbox, Modal } from 'antd';
import type { ActivityReportResponse } from '@mfa-portal/shared';
import { useReportEvent } from '../api/report-event';
import { useFocusReturn } from '../../../lib/ui/dialog-focus';

/**
 * "This wasn't me": the report (always) and what to do about it, each chosen with a checkbox: sign out
 * everywhere, revoke bypass codes, lock the account until the service desk helps. Confirmed with a button.
 */
export function ReportEventDialog({ eventId, what, onClose }: { eventId: string | null; what: string; onClose: () => void }) {
  const { t } = useTranslation(['activity', 'errors']);
  const report = useReportEvent();
  const [signOutEverywhere, setSignOut] = useState(true);
  const [revokeBypassCodes, setRevoke] = useState(true);
  const [lockAccount, setLock] = useState(false);
  const [done, setDone] = useState<ActivityReportResponse | null>(null);
  const close = () => {
    setDone(null);
    report.reset();
    onClose();
  };
  const submit = () => {
    if (!eventId) return;
    report.mutate({ id: eventId, body: { signOutEverywhere, revokeBypassCodes, lockAccount } }, { onSuccess: setDone });
  };
  const focusReturn = useFocusReturn(eventId !== null);
  return (
    <Modal
      open={eventId !== null}
      {...focusReturn}
      title={t('activity:report.title')}
      onCancel={close}
      destroyOnHidden
      footer={
        done
          ? [
              <Button key="close" type="primary" onClick={close}>
                {t('activity:report.close')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {t('activity:report.cancel')}
              </Button>,
              <Button key="submit" type="primary" danger loading={report.isPending} onClick={submit}>
                {t('activity:report.confirm')}
              </Button>,
            ]
      }
    >
      {done ? (
        <Alert
          type="success"
          showIcon
          message={t('activity:report.done_title')}
          description={
            <>
              <ul>
                <li>{t(done.securityContactNotified ? 'activity:report.done_contact' : 'activity:report.done_recorded')}</li>
                {done.signedOutEverywhere ? <li>{t('activity:report.done_signed_out')}</li> : null}
                {revokeBypassCodes ? <li>{t('activity:report.done_revoked', { count: done.bypassCodesRevoked })}</li> : null}
                {done.locked ? <li>{t('activity:report.done_locked')}</li> : null}
              </ul>
              {done.locked ? <ServiceDeskContact /> : null}
            </>
          }
        />
      ) : (
        <>
          <p className="dialog-paragraph">{t('activity:report.intro', { what })}</p>
          <fieldset className="report-choices">
            <legend>{t('activity:report.choices')}</legend>
            <Checkbox checked={signOutEverywhere} onChange={(e) => setSignOut(e.target.checked)}>
              {t('activity:report.sign_out')}
            </Checkbox>
            <br />
            <Checkbox checked={revokeBypassCodes} onChange={(e) => setRevoke(e.target.checked)}>
              {t('activity:report.revoke')}
            </Checkbox>
            <br />
            <Checkbox checked={lockAccount} onChange={(e) => setLock(e.target.checked)}>
              {t('activity:report.lock')}
            </Checkbox>
          </fieldset>
          {report.error ? <Alert type="error" showIcon message={t('activity:report.failed')} description={<ServiceDeskContact />} /> : null}
        </>
      )}
    </Modal>
  );
}
