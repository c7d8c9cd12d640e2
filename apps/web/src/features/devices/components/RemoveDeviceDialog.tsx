import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Checkbox, Modal } from 'antd';
import type { Device } from '@mfa-portal/shared';
import { isApiError } from '../../../lib/api/api-error';
import { stepUpOutcome } from '../../../lib/step-up/step-up';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { focusMarkedElement, useFocusReturn } from '../../../lib/ui/dialog-focus';
import { useFlash } from '../../../lib/ui/flash';
import { useDeleteDevice } from '../../../lib/devices/api/delete-device';

/**
 * Removing a device, confirmed first. When it is the user's only device (known from the list, or
 * because the API answered `device.last_device_confirmation_required`), the consequence is explained
 * and must be acknowledged before the removal is sent with `confirmLastDevice=true`.
 */
export function RemoveDeviceDialog({
  device,
  isOnlyDevice,
  open,
  onClose,
}: {
  device: Device;
  isOnlyDevice: boolean;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('devices');
  const remove = useDeleteDevice();
  const { showSuccess } = useFlash();
  const [serverSaysLast, setServerSaysLast] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const last = isOnlyDevice || serverSaysLast;

  const close = () => {
    remove.reset();
    setServerSaysLast(false);
    setUnderstood(false);
    onClose();
  };
  // mutateAsync, not mutate: the device leaves the list (and this dialog unmounts) before the
  // per-call callbacks of mutate would run, and the confirmation must still be shown.
  const submit = async () => {
    try {
      await remove.mutateAsync({ deviceId: device.id, confirmLastDevice: last && understood });
      showSuccess(t('remove.done', { name: device.name }));
      close();
    } catch (error) {
      if (isApiError(error, 'device.last_device_confirmation_required')) {
        setServerSaysLast(true);
        remove.reset();
      }
    }
  };

  const { error: visibleError, cancelled } = stepUpOutcome(remove);
  const focusReturn = useFocusReturn(open);
  return (
    <Modal
      open={open}
      {...focusReturn}
      afterOpenChange={focusMarkedElement}
      title={last ? t('remove.last_title', { name: device.name }) : t('remove.title', { name: device.name })}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close} autoFocus data-autofocus>
          {t('remove.keep')}
        </Button>,
        <Button key="submit" danger type="primary" onClick={() => void submit()} loading={remove.isPending} disabled={last && !understood}>
          {remove.isPending ? t('remove.removing') : t('remove.submit')}
        </Button>,
      ]}
    >
      {last ? (
        <>
          <Alert
            type="warning"
            showIcon
            title={t('remove.last_warning_title', { name: device.name })}
            description={t('remove.last_warning_body')}
          />
          <p className="dialog-paragraph">{t('remove.last_suggestion')}</p>
          <Checkbox checked={understood} onChange={(e) => setUnderstood(e.target.checked)}>
            {t('remove.last_acknowledge')}
          </Checkbox>
        </>
      ) : (
        <p>{t('remove.body', { name: device.name })}</p>
      )}
      {cancelled ? <p className="dialog-paragraph">{t('remove.not_confirmed')}</p> : null}
      {visibleError ? <ErrorAlert error={visibleError} title={t('remove.failed')} /> : null}
    </Modal>
  );
}
