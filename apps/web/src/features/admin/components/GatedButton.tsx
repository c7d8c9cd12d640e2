import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import type { AdminUserActionName, AdminUserDetail } from '@mfa-portal/shared';
import { isDenyReason } from './admin-errors';

/** Whether the caller may do `name` here, and if not, why (translated). */
export function useActionGate(detail: AdminUserDetail) {
  const { t } = useTranslation('admin');
  return (name: AdminUserActionName): string | null => {
    const action = detail.actions[name];
    if (action?.allowed !== false) return null;
    return isDenyReason(action.reason) ? t(`deny.${action.reason}`) : t('deny.unknown');
  };
}

/** A button for an action the policy may refuse: disabled when it does (the page's note above says why). */
export function GatedButton({
  reason,
  onClick,
  label,
  ariaLabel,
  danger,
  primary,
}: {
  reason: string | null;
  onClick: () => void;
  label: string;
  ariaLabel?: string;
  danger?: boolean;
  primary?: boolean;
}) {
  return (
    <Button onClick={onClick} disabled={reason !== null} aria-label={ariaLabel} danger={danger} type={primary ? 'primary' : 'default'}>
      {label}
    </Button>
  );
}
