import { Route, Routes } from 'react-router';
import { AuthShell, type AuthShellProps } from './AuthShell';
import { AccountDisabledPage } from './pages/AccountDisabledPage';
import { LoggedOutPage } from './pages/LoggedOutPage';
import { MissingTwoFactorPage } from './pages/MissingTwoFactorPage';
import { ServerErrorPage } from './pages/ServerErrorPage';
import { UnauthorizedPage } from './pages/UnauthorizedPage';
import { ROUTES } from './routes';

/**
 * Error and logged-out pages are exact matches that need no sign-in; every other path goes through
 * the sign-in shell to the main application.
 */
export function AppRoutes(shellProps: AuthShellProps) {
  return (
    <Routes>
      <Route path={ROUTES.accountDisabled} element={<AccountDisabledPage />} />
      <Route path={ROUTES.unauthorized} element={<UnauthorizedPage />} />
      <Route path={ROUTES.unauthorizedAlias} element={<UnauthorizedPage />} />
      <Route path={ROUTES.missingTwoFactor} element={<MissingTwoFactorPage />} />
      <Route path={ROUTES.serverError} element={<ServerErrorPage showHomeLink />} />
      <Route path={ROUTES.loggedOut} element={<LoggedOutPage />} />
      <Route path="*" element={<AuthShell {...shellProps} />} />
    </Routes>
  );
}
