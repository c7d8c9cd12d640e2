import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from './use-document-title';

/** Banner with the portal's name, then the page's main landmark with its single h1. */
export function PageLayout({ title, headerActions, children }: { title: string; headerActions?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('common');
  useDocumentTitle(title);
  return (
    <div className="layout">
      <header className="site-header">
        <p className="site-header__brand">{t('app.name')}</p>
        {headerActions ? <div className="site-header__actions">{headerActions}</div> : null}
      </header>
      <main className="page">
        <h1 className="page__title">{title}</h1>
        {children}
      </main>
    </div>
  );
}
