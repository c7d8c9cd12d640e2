import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { usePortalRole } from '../../../lib/roles';
import { ADMIN_ROUTES } from '../../../lib/main-routes';
import { useReach } from '../api/units';

/**
 * The administration area's own navigation: users for every administrator; the token inventory, the
 * audit log, the reports and the administrative units only for Solution Administrators (the server
 * refuses them to anyone else, but a helpdesk member limited to units reads their units' reports).
 */
export function AdminNav() {
  const { t } = useTranslation('admin');
  const role = usePortalRole();
  const reach = useReach();
  const items = [
    { to: ADMIN_ROUTES.users, label: t('nav.users') },
    ...(role === 'helpdesk' && reach.data?.reach === 'units' ? [{ to: ADMIN_ROUTES.reports, label: t('nav.reports') }] : []),
    ...(role === 'solution_admin'
      ? [
          { to: ADMIN_ROUTES.tokens, label: t('nav.tokens') },
          { to: ADMIN_ROUTES.audit, label: t('nav.audit') },
          { to: ADMIN_ROUTES.provisioning, label: t('nav.provisioning') },
          { to: ADMIN_ROUTES.passkeys, label: t('nav.passkeys') },
          { to: ADMIN_ROUTES.factorPolicy, label: t('nav.factor_policy') },
          { to: ADMIN_ROUTES.reports, label: t('nav.reports') },
          { to: ADMIN_ROUTES.units, label: t('nav.units') },
          { to: ADMIN_ROUTES.campaigns, label: t('nav.campaigns') },
        ]
      : []),
  ];
  return (
    <nav className="admin-nav" aria-label={t('nav.label')}>
      {items.map((item) => (
        <NavLink key={item.to} to={item.to} className="admin-nav__link">
          {item.label}
        </NavLink>
      ))}
    </nav>
  );
}
