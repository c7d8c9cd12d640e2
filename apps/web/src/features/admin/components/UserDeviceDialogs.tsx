import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Checkbox, Form, Input } from 'antd';
import type { Device } from '@mfa-portal/shared';
import { isApiError } from '../../../lib/api/api-error';
import { useFlash } from '../../../lib/ui/flash';
import { normaliseOtp, OTP_INPUT_PROPS, otpRules } from '../../../lib/ui/otp';
import { useDeleteUserDevice } from '../api/delete-device';
import { useResyncUserToken } from '../api/resync-token';
import { JustifiedActionDialog } from './JustifiedActionDialog';

/**
 * Removing one of the user's devices, confirmed, with reason and ticket. When it is their only device
 * (known from the list, or because the server answered `device.last_device_confirmation_required`),
 * the consequence is spelled out and must be acknowledged first.
 */
export function RemoveUserDeviceDialog({
  upn,
  device,
  isOnlyDevice,
  onClose,
}: {
  upn: string;
  device: Device;
  isOnlyDevice: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const remove = useDeleteUserDevice(upn);
  const { showSuccess } = useFlash();
  const [serverSaysLast, setServerSaysLast] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const last = isOnlyDevice || serverSaysLast;
  return (
    <JustifiedActionDialog
      open
      name="admin-remove-device"
      title={t('remove.title', { name: device.name })}
      intro={
        last ? (
          <>
            <Alert type="warning" showIcon title={t('remove.last_title')} description={t('remove.last_body', { upn })} />
            <Checkbox checked={understood} onChange={(e) => setUnderstood(e.target.checked)} className="dialog-paragraph">
              {t('remove.last_acknowledge')}
            </Checkbox>
          </>
        ) : (
          <p>{t(device.kind === 'hardware_token' ? 'remove.body_token' : 'remove.body', { name: device.name, upn })}</p>
        )
      }
      submitLabel={t('remove.submit')}
      submittingLabel={t('remove.submitting')}
      danger
      submitDisabled={last && !understood}
      pending={remove.isPending}
      error={remove.error && !isApiError(remove.error, 'device.last_device_confirmation_required') ? remove.error : null}
      failedTitle={t('remove.failed')}
      onClose={onClose}
      onSubmit={async (values) => {
        try {
          await remove.mutateAsync({
            deviceId: device.id,
            confirmLastDevice: last && understood,
            reason: values.reason,
            ticket: values.ticket,
          });
        } catch (error) {
          if (isApiError(error, 'device.last_device_confirmation_required')) setServerSaysLast(true);
          throw error;
        }
        showSuccess(t('remove.done', { name: device.name, upn }));
        onClose();
      }}
    />
  );
}

interface ResyncValues {
  first: string;
  second: string;
  third: string;
}

/** Resynchronising the user's hardware token with three consecutive codes they read out. */
export function ResyncUserTokenDialog({ upn, device, onClose }: { upn: string; device: Device; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const resync = useResyncUserToken(upn);
  const { showSuccess } = useFlash();
  const labels = [t('resync.first_label'), t('resync.second_label'), t('resync.third_label')];
  return (
    <JustifiedActionDialog<ResyncValues>
      open
      name="admin-resync-token"
      title={t('resync.title', { name: device.name })}
      intro={<p>{t('resync.intro')}</p>}
      fields={(['first', 'second', 'third'] as const).map((name, i) => (
        <Form.Item key={name} name={name} label={labels[i]} rules={otpRules(t, labels[i])}>
          <Input {...OTP_INPUT_PROPS} autoFocus={i === 0} data-autofocus={i === 0 ? true : undefined} />
        </Form.Item>
      ))}
      submitLabel={t('resync.submit')}
      submittingLabel={t('resync.submitting')}
      pending={resync.isPending}
      error={resync.error}
      failedTitle={t('resync.failed')}
      onClose={onClose}
      onSubmit={async (values) => {
        await resync.mutateAsync({
          deviceId: device.id,
          codes: [values.first, values.second, values.third].map(normaliseOtp),
          reason: values.reason,
          ticket: values.ticket,
        });
        showSuccess(t('resync.done', { name: device.name }));
        onClose();
      }}
    />
  );
}
