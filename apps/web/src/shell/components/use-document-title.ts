import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the tab title to "<page> – <portal name>" so screen-reader and tab users know where they are. */
export function useDocumentTitle(pageTitle: string | undefined): void {
  const { t } = useTranslation('common');
  const appName = t('app.name');
  useEffect(() => {
    document.title = pageTitle ? t('app.page_title', { page: pageTitle, app: appName }) : appName;
  }, [pageTitle, appName, t]);
}
