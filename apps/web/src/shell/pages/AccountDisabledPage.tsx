import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageLayout } from '../components/PageLayout';
import { ServiceDeskContact } from '../components/ServiceDeskContact';
import { SignOutButton } from '../components/SignOutButton';

/** Router state the shell passes when it sends a disabled or locked-out user here. */
export interface AccountDisabledState {
  reason?: string | null;
}

function reasonFrom(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const reason = (state as AccountDisabledState).reason;
  return typeof reason === 'string' && reason.trim() ? reason.trim() : undefined;
}

/** /error/accountdisabled: the MFA provider says the user is disabled or locked out. */
export function AccountDisabledPage() {
  const { t } = useTranslation('shell');
  const reason = reasonFrom(useLocation().state);
  return (
    <PageLayout title={t('account_disabled.title')} headerActions={<SignOutButton />}>
      <p>{t('account_disabled.body')}</p>
      <ServiceDeskContact />
      {reason ? <p className="note">{t('account_disabled.reason', { reason })}</p> : null}
    </PageLayout>
  );
}
