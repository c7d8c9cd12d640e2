import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { LOST_DEVICE_MAX_VALIDITY_SECONDS, type AdminLostDeviceProgress, type AdminLostDeviceResponse } from '@mfa-portal/shared';
import { formatDate } from '../../../lib/ui/format';
import { useReportLostDevice } from '../api/lost-device';
import { AdminErrorAlert } from '../components/AdminErrorAlert';

/** Step 3 after a reload: the code was shown once; say what is known of it and offer a new one. */
export function CodeSummary({
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
          {code.usesLeft !== 0 && code.expiresAt
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
