import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { usePortalRole } from '../../../lib/roles';
import { ADMIN_ROUTES } from '../../../lib/main-routes';

/**
 * The administration area's own navigation: users for every administrator; the token inventory and
 * the audit log only for Solution Administrators (the server refuses them to anyone else).
 */
export function AdminNav() {
  const { t } = useTranslation('admin');
  const role = usePortalRole();
  const items = [
    { to: ADMIN_ROUTES.users, label: t('nav.users') },
    ...(role === 'solution_admin'
      ? [
          { to: ADMIN_ROUTES.tokens, label: t('nav.tokens') },
          { to: ADMIN_ROUTES.audit, label: t('nav.audit') },
          { to: ADMIN_ROUTES.provisioning, label: t('nav.provisioning') },
          { to: ADMIN_ROUTES.passkeys, label: t('nav.passkeys') },
          { to: ADMIN_ROUTES.reports, label: t('nav.reports') },
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
