import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageLayout } from '../components/PageLayout';

/**
 * /loggedout: where sign-out ends. Needs no sign-in. The identity provider appends its `state` to
 * this address; MSAL has handled it at start-up, so the query is dropped from the address bar.
 */
export function LoggedOutPage() {
  const { t } = useTranslation('shell');
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (location.search) void navigate({ pathname: location.pathname, hash: location.hash }, { replace: true });
  }, [location.search, location.pathname, location.hash, navigate]);
  return (
    <PageLayout title={t('logged_out.title')}>
      <p>{t('logged_out.body')}</p>
      <div className="actions">
        <Link className="button button--primary" to="/" reloadDocument>
          {t('common:actions.sign_in_again')}
        </Link>
      </div>
    </PageLayout>
  );
}
