import { useTranslation } from 'react-i18next';
import { Button, Modal } from 'antd';
import type { Device } from '@mfa-portal/shared';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { formatTime } from '../../../lib/ui/format';
import { useTestPasskey } from '../api/finish-webauthn-test';
import { useFocusReturn } from '../../../lib/ui/dialog-focus';

/** "Check it works" for a passkey or security key: the browser asks for it, the portal checks its answer. */
export function TestPasskeyDialog({ device, open, onClose }: { device: Device; open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation('devices');
  const test = useTestPasskey(device.id);
  const close = () => {
    test.reset();
    onClose();
  };
  const focusReturn = useFocusReturn(open);
  return (
    <Modal
      open={open}
      {...focusReturn}
      title={t('passkey_test.title', { name: device.name })}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={close}>
          {t('passkey_test.close')}
        </Button>,
        test.isSuccess ? null : (
          <Button key="go" type="primary" loading={test.isPending} onClick={() => test.mutate()}>
            {test.isPending ? t('passkey_test.waiting') : t('passkey_test.start')}
          </Button>
        ),
      ]}
    >
      <p>{t('passkey_test.intro')}</p>
      {test.isSuccess ? (
        <p role="status" className="result result--success">
          {t('passkey_test.ok', { time: formatTime(test.data.verifiedAt, i18n.resolvedLanguage) })}
        </p>
      ) : null}
      {test.error ? <ErrorAlert error={test.error} title={t('passkey_test.failed')} /> : null}
    </Modal>
  );
}
