import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorBodySchema } from '@mfa-portal/shared';
import { PageLayout } from '../components/PageLayout';
import { ServiceDeskContact } from '../components/ServiceDeskContact';

/** The server's `{ code, message }` body, when the error text is one; otherwise nothing is shown. */
function serverCode(errorText: string | undefined): string | undefined {
  if (!errorText) return undefined;
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(errorText));
    return parsed.success ? parsed.data.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Server error page. On /error/500 it has a link home; in the shell's failed state (and when the
 * settings could not be loaded) it has none, only a way to try the same page again.
 */
export function ServerErrorPage({ showHomeLink, error }: { showHomeLink: boolean; error?: string | undefined }) {
  const { t } = useTranslation(['shell', 'errors']);
  const code = serverCode(error);
  return (
    <PageLayout title={t('server_error.title')}>
      <p>{t('server_error.body')}</p>
      <ServiceDeskContact />
      {code ? <p className="note">{t(`errors:${code}`)}</p> : null}
      <div className="actions">
        {showHomeLink ? (
          <Link className="button button--primary" to="/">
            {t('common:actions.go_home')}
          </Link>
        ) : (
          <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
            {t('common:actions.try_again')}
          </button>
        )}
      </div>
    </PageLayout>
  );
}
