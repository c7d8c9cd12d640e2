import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import type { Device } from '@mfa-portal/shared';
import { useCapabilities } from '../../../lib/capabilities/get-capabilities';
import { useDeviceLabels } from '../../../lib/devices/device-labels';
import { useCanChangeOwnMfa } from '../../../lib/self-service';
import { PHONE_LAYOUT_QUERY, useMediaQuery } from '../../../lib/ui/use-media-query';
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
 * On a phone, "Check it works" and "More" (the others, in a row below), so a card stays short. A rename
 * is confirmed on the device's own card, where the person is looking.
 */
export function DeviceActions({ device, deviceCount }: { device: Device; deviceCount: number }) {
  const { t } = useTranslation('devices');
  const [dialog, setDialog] = useState<Dialog>(null);
  // What just happened to this device, said on its card (not in a banner at the top of a long page).
  const [notice, setNotice] = useState('');
  // Buttons name the device as its heading in the list does.
  const name = useDeviceLabels().label(device);
  const close = () => setDialog(null);
  const open = (next: Exclude<Dialog, null>) => {
    setNotice('');
    setDialog(next);
  };
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
  const phone = useMediaQuery(PHONE_LAYOUT_QUERY);
  const [moreShown, setMoreShown] = useState(false);
  const moreId = useId();
  const renameButton = canRename ? (
    <Button onClick={() => open('rename')} aria-label={t('actions.rename_named', { name })}>
      {t('actions.rename')}
    </Button>
  ) : null;
  const testButton = canTest ? (
    <Button onClick={() => open('test')} aria-label={t('actions.test_named', { name })}>
      {t('actions.test')}
    </Button>
  ) : null;
  const resyncButton = canResync ? (
    <Button onClick={() => open('resync')} aria-label={t('actions.resync_named', { name })}>
      {t('actions.resync')}
    </Button>
  ) : null;
  const removeButton = canChange ? (
    <Button danger onClick={() => open('remove')} aria-label={t('actions.remove_named', { name })}>
      {t('actions.remove')}
    </Button>
  ) : null;
  // On a phone the card stays short: "Check it works" and "More", which shows the rest in a row below.
  const collapse = phone && canTest && (canRename || canResync || canChange);
  return (
    <>
      {collapse ? (
        <>
          <div className="device-actions">
            {testButton}
            <Button
              aria-expanded={moreShown}
              aria-controls={moreId}
              aria-label={t('actions.more_named', { name })}
              onClick={() => setMoreShown((shown) => !shown)}
            >
              {t('actions.more')}
            </Button>
          </div>
          <div className="device-actions device-actions--more" id={moreId} hidden={!moreShown}>
            {renameButton}
            {resyncButton}
            {removeButton}
          </div>
        </>
      ) : (
        <div className="device-actions">
          {renameButton}
          {testButton}
          {resyncButton}
          {removeButton}
        </div>
      )}
      {/* A polite live region, there from the start, so the confirmation is read where it appears. */}
      <p className="device-notice" role="status">
        {notice ? (
          <>
            <span className="device-notice__mark" aria-hidden="true">
              ✓{' '}
            </span>
            {notice}
          </>
        ) : null}
      </p>
      {canRename ? <RenameDeviceDialog device={device} open={dialog === 'rename'} onClose={close} onRenamed={setNotice} /> : null}
      {canTest && canTestPasskey ? <TestPasskeyDialog device={device} open={dialog === 'test'} onClose={close} /> : null}
      {canTest && !canTestPasskey ? <TestDeviceDialog device={device} open={dialog === 'test'} onClose={close} /> : null}
      {canResync ? <ResyncTokenDialog device={device} open={dialog === 'resync'} onClose={close} /> : null}
      {canChange ? (
        <RemoveDeviceDialog device={device} isOnlyDevice={deviceCount === 1} open={dialog === 'remove'} onClose={close} />
      ) : null}
    </>
  );
}
