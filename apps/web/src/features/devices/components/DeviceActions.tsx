import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import type { Device } from '@mfa-portal/shared';
import { useCapabilities } from '../../../lib/capabilities/get-capabilities';
import { useDeviceLabels } from '../../../lib/devices/device-labels';
import { useCanChangeOwnMfa } from '../../../lib/self-service';
import { RemoveDeviceDialog } from './RemoveDeviceDialog';
import { RenameDeviceDialog } from './RenameDeviceDialog';
import { ResyncTokenDialog } from './ResyncTokenDialog';
import { TestDeviceDialog, useCanPush } from './TestDeviceDialog';
import { TestPasskeyDialog } from './TestPasskeyDialog';
import '../devices.css';

type Dialog = 'rename' | 'test' | 'resync' | 'remove' | null;

/**
 * Whether the device can be renamed: any but a hardware token the MFA service keeps without a name
 * (Duo's answer 409), which is known once the service's capabilities are (asked only for tokens).
 */
export function useCanRename(device: Device): boolean {
  const isToken = device.kind === 'hardware_token';
  const isPasskey = device.capabilities.includes('webauthn');
  const capabilities = useCapabilities({ enabled: isToken || isPasskey });
  // Duo keeps the name a passkey got when it was enrolled in its prompt.
  if (isPasskey) return capabilities.data?.webauthn === true;
  return !isToken || capabilities.data?.renameHardwareTokens === true;
}

/**
 * What the user can do with one device: rename it (when the MFA service keeps a name for it), check
 * that it works (passcode or push), resync it (hardware tokens) and remove it. Each opens a dialog; each button names the device for screen readers.
 */
export function DeviceActions({ device, deviceCount }: { device: Device; deviceCount: number }) {
  const { t } = useTranslation('devices');
  const [dialog, setDialog] = useState<Dialog>(null);
  // Buttons name the device as its heading in the list does.
  const name = useDeviceLabels().label(device);
  const close = () => setDialog(null);
  const canChange = useCanChangeOwnMfa();
  const canPasscode = device.capabilities.includes('passcode');
  // A phone that takes only pushes can be tested only if the MFA service sends them: ask it then.
  const canPush = useCanPush(device, !canPasscode);
  const isPasskey = device.capabilities.includes('webauthn');
  const passkeyCapabilities = useCapabilities({ enabled: isPasskey });
  // A Duo-held passkey is checked in Duo's prompt, not here.
  const canTestPasskey = isPasskey && passkeyCapabilities.data?.webauthn === true;
  const canTest = canPasscode || canPush || canTestPasskey;
  const canResync = canChange && device.kind === 'hardware_token';
  const canRename = useCanRename(device) && canChange;
  return (
    <div className="device-actions">
      {canRename ? (
        <Button onClick={() => setDialog('rename')} aria-label={t('actions.rename_named', { name })}>
          {t('actions.rename')}
        </Button>
      ) : null}
      {canTest ? (
        <Button onClick={() => setDialog('test')} aria-label={t('actions.test_named', { name })}>
          {t('actions.test')}
        </Button>
      ) : null}
      {canResync ? (
        <Button onClick={() => setDialog('resync')} aria-label={t('actions.resync_named', { name })}>
          {t('actions.resync')}
        </Button>
      ) : null}
      {canChange ? (
        <Button danger onClick={() => setDialog('remove')} aria-label={t('actions.remove_named', { name })}>
          {t('actions.remove')}
        </Button>
      ) : null}
      {canRename ? <RenameDeviceDialog device={device} open={dialog === 'rename'} onClose={close} /> : null}
      {canTest && canTestPasskey ? <TestPasskeyDialog device={device} open={dialog === 'test'} onClose={close} /> : null}
      {canTest && !canTestPasskey ? <TestDeviceDialog device={device} open={dialog === 'test'} onClose={close} /> : null}
      {canResync ? <ResyncTokenDialog device={device} open={dialog === 'resync'} onClose={close} /> : null}
      {canChange ? (
        <RemoveDeviceDialog device={device} isOnlyDevice={deviceCount === 1} open={dialog === 'remove'} onClose={close} />
      ) : null}
    </div>
  );
}
