import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Checkbox } from 'antd';
import type { AdminToken } from '@mfa-portal/shared';
import { isApiError } from '../../../lib/api/api-error';
import { useFlash } from '../../../lib/ui/flash';
import { useRetireToken, useUnassignToken } from '../api/token-actions';
import { JustifiedActionDialog } from './JustifiedActionDialog';

export type TokenDialog = { kind: 'unassign' | 'retire'; token: AdminToken } | null;

/**
 * Unassigning or retiring a hardware token, confirmed with reason and ticket. Unassigning removes the
 * holder's device of it: when that is their only device (known from the list, or because the server
 * answered `device.last_device_confirmation_required`), the consequence is spelled out and must be
 * acknowledged first, as when removing a device from their page.
 */
export function TokenActionDialog({ dialog, onClose }: { dialog: NonNullable<TokenDialog>; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const unassign = useUnassignToken();
  const retire = useRetireToken();
  const { showSuccess } = useFlash();
  const [serverSaysLast, setServerSaysLast] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const { kind, token } = dialog;
  const mutation = kind === 'unassign' ? unassign : retire;
  const { serial } = token;
  const holder = token.assignedTo ?? '';
  const last = kind === 'unassign' && (token.holderDevices === 1 || serverSaysLast);
  return (
    <JustifiedActionDialog
      open
      name={`token-${kind}`}
      title={t(`tokens.${kind}.title`, { serial })}
      intro={
        last ? (
          <>
            <Alert
              type="warning"
              showIcon
              title={t('tokens.unassign.last_title')}
              description={t('tokens.unassign.last_body', { holder, serial })}
            />
            <Checkbox checked={understood} onChange={(e) => setUnderstood(e.target.checked)} className="dialog-paragraph">
              {t('tokens.unassign.last_acknowledge')}
            </Checkbox>
          </>
        ) : (
          <p>{t(`tokens.${kind}.body`, { serial, holder })}</p>
        )
      }
      reasonHelp={t(`tokens.${kind}.reason_help`, { holder })}
      submitLabel={t(`tokens.${kind}.submit`)}
      submittingLabel={t(`tokens.${kind}.submitting`)}
      danger
      submitDisabled={last && !understood}
      pending={mutation.isPending}
      error={mutation.error && !isApiError(mutation.error, 'device.last_device_confirmation_required') ? mutation.error : null}
      failedTitle={t(`tokens.${kind}.failed`)}
      onClose={onClose}
      onSubmit={async (values) => {
        try {
          if (kind === 'unassign') await unassign.mutateAsync({ serial, ...values, confirmLastDevice: last && understood });
          else await retire.mutateAsync({ serial, ...values });
        } catch (error) {
          if (isApiError(error, 'device.last_device_confirmation_required')) setServerSaysLast(true);
          throw error;
        }
        showSuccess(t(`tokens.${kind}.done`, { serial }));
        onClose();
      }}
    />
  );
}
