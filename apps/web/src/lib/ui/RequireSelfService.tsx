import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCanChangeOwnMfa } from '../self-service';
import { Page } from './Page';
import { ProtectedAccountNote } from './ProtectedAccountNote';

/** A screen that changes the user's MFA: shown only to users who may make that change themselves. */
export function RequireSelfService({ children }: { children: ReactNode }) {
  const { t } = useTranslation('app');
  if (useCanChangeOwnMfa()) return children;
  return (
    <Page title={t('protected.title')}>
      <ProtectedAccountNote />
    </Page>
  );
}
