import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { CampaignBanner } from '../../features/campaigns';
import { useUser } from '../../shell/contexts';
import { SignOutButton } from '../../shell/components/SignOutButton';
import { useIsAdmin } from '../../lib/roles';
import { MAIN_ROUTES } from '../../lib/main-routes';
import { useCanChangeOwnMfa } from '../../lib/self-service';
import { FlashBanner } from '../../lib/ui/flash';
import { trackInputModality } from '../../lib/ui/input-modality';
import './app-layout.css';
import './shared-ui.css';

const NAV_ITEMS = [
  { to: MAIN_ROUTES.overview, key: 'nav.overview', end: true },
  { to: MAIN_ROUTES.addDevice, key: 'nav.add_device', end: false },
  { to: MAIN_ROUTES.bypassCodes, key: 'nav.bypass_codes', end: false },
  { to: MAIN_ROUTES.activity, key: 'nav.activity', end: false },
  { to: MAIN_ROUTES.help, key: 'nav.help', end: false },
  { to: MAIN_ROUTES.admin, key: 'nav.admin', end: false },
] as const;

/**
 * Frame of every screen: a skip link, the banner (portal name, navigation, who is signed in, "Sign out"),
 * the success banner and the page's main landmark. Administrators also see "Administration". The navigation is a row of links, not a list;
 * on a phone (from 360 px) it stays one row that scrolls sideways, with the current page's link brought into view.
 * Focus rings show for keyboard use only (input-modality.ts).
 */
export function AppLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('app');
  const { user } = useUser();
  const canChange = useCanChangeOwnMfa();
  // The administration area is for Helpdesk and Solution Administrators only (the server enforces it).
  const isAdmin = useIsAdmin();
  const visible = NAV_ITEMS.filter(
    (item) => (canChange || item.to !== MAIN_ROUTES.addDevice) && (isAdmin || item.to !== MAIN_ROUTES.admin),
  );
  const skipToMain = () => document.getElementById('main')?.focus();
  useEffect(() => trackInputModality(), []);
  // The phone's one-row navigation scrolls sideways: show the current page's link (without moving the page).
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const strip = nav.current;
    const current = strip?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!strip || !current || strip.scrollWidth <= strip.clientWidth) return;
    strip.scrollLeft = Math.max(0, current.offsetLeft - strip.offsetLeft - (strip.clientWidth - current.offsetWidth) / 2);
  }, [pathname]);
  return (
    <div className="layout app-layout">
      {/* A button, not href="#main": with <base href> a fragment link would leave the page. */}
      <button type="button" className="skip-link" onClick={skipToMain}>
        {t('layout.skip_to_main')}
      </button>
      <header className="site-header app-header">
        <Link to={MAIN_ROUTES.overview} className="site-header__brand app-header__brand">
          {t('common:app.name')}
        </Link>
        <nav className="app-nav" aria-label={t('nav.label')} ref={nav}>
          {visible.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end} className="app-nav__link">
              {t(item.key)}
            </NavLink>
          ))}
        </nav>
        <div className="site-header__actions">
          {user ? <span className="signed-in-as">{t('layout.signed_in_as', { name: user.displayName })}</span> : null}
          <SignOutButton />
        </div>
      </header>
      <main className="page app-page" id="main" tabIndex={-1}>
        <FlashBanner />
        {/* An enrolment campaign that asks the person for a device they still lack. */}
        <CampaignBanner />
        {children}
      </main>
    </div>
  );
}
