import { useTranslation } from 'react-i18next';
import type { AdminActivationResponse } from '@mfa-portal/shared';
import { useFlash } from '../../../lib/ui/flash';
import { useSendActivation } from '../api/send-activation';
import { useUnlockUser } from '../api/unlock-user';
import { JustifiedActionDialog } from './JustifiedActionDialog';

/** Ending a lockout (reason and ticket recorded). */
export function UnlockDialog({ upn, statusReason, onClose }: { upn: string; statusReason: string | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const unlock = useUnlockUser(upn);
  const { showSuccess } = useFlash();
  return (
    <JustifiedActionDialog
      open
      name="admin-unlock"
      title={t('unlock.title', { upn })}
      intro={<p>{statusReason ? t('unlock.body_reason', { reason: statusReason }) : t('unlock.body')}</p>}
      submitLabel={t('unlock.submit')}
      submittingLabel={t('unlock.submitting')}
      pending={unlock.isPending}
      error={unlock.error}
      failedTitle={t('unlock.failed')}
      onClose={onClose}
      onSubmit={async (values) => {
        await unlock.mutateAsync(values);
        showSuccess(t('unlock.done', { upn }));
        onClose();
      }}
    />
  );
}

/** Recording an enrolment invitation; the link to pass on comes back (the portal sends no e-mail). */
export function ActivationDialog({
  upn,
  onClose,
  onSent,
}: {
  upn: string;
  onClose: () => void;
  onSent: (result: AdminActivationResponse) => void;
}) {
  const { t } = useTranslation('admin');
  const send = useSendActivation(upn);
  return (
    <JustifiedActionDialog
      open
      name="admin-activation"
      title={t('activation.title', { upn })}
      intro={<p>{t('activation.body')}</p>}
      submitLabel={t('activation.submit')}
      submittingLabel={t('activation.submitting')}
      pending={send.isPending}
      error={send.error}
      failedTitle={t('activation.failed')}
      onClose={onClose}
      onSubmit={async (values) => {
        onSent(await send.mutateAsync(values));
        onClose();
      }}
    />
  );
}
