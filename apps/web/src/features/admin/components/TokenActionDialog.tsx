import { useTranslation } from 'react-i18next';
import type { AdminToken } from '@mfa-portal/shared';
import { useFlash } from '../../../lib/ui/flash';
import { useRetireToken, useUnassignToken } from '../api/token-actions';
import { JustifiedActionDialog } from './JustifiedActionDialog';

export type TokenDialog = { kind: 'unassign' | 'retire'; token: AdminToken } | null;

/** Unassigning or retiring a hardware token, confirmed with reason and ticket. */
export function TokenActionDialog({ dialog, onClose }: { dialog: NonNullable<TokenDialog>; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const unassign = useUnassignToken();
  const retire = useRetireToken();
  const { showSuccess } = useFlash();
  const mutation = dialog.kind === 'unassign' ? unassign : retire;
  const { serial, assignedTo } = dialog.token;
  return (
    <JustifiedActionDialog
      open
      name={`token-${dialog.kind}`}
      title={t(`tokens.${dialog.kind}.title`, { serial })}
      intro={<p>{t(`tokens.${dialog.kind}.body`, { serial, holder: assignedTo ?? '' })}</p>}
      submitLabel={t(`tokens.${dialog.kind}.submit`)}
      submittingLabel={t(`tokens.${dialog.kind}.submitting`)}
      danger
      pending={mutation.isPending}
      error={mutation.error}
      failedTitle={t(`tokens.${dialog.kind}.failed`)}
      onClose={onClose}
      onSubmit={async (values) => {
        await mutation.mutateAsync({ serial, ...values });
        showSuccess(t(`tokens.${dialog.kind}.done`, { serial }));
        onClose();
      }}
    />
  );
}
