import { Route, Routes } from 'react-router';
import { AuthShell, type AuthShellProps } from './AuthShell';
import { AccountDisabledPage } from './pages/AccountDisabledPage';
import { LoggedOutPage } from './pages/LoggedOutPage';
import { MissingTwoFactorPage } from './pages/MissingTwoFactorPage';
import { ServerErrorPage } from './pages/ServerErrorPage';
import { UnauthorizedPage } from './pages/UnauthorizedPage';
import { SHELL_ROUTES } from './shell-routes';

/**
 * Error and logged-out pages are exact matches that need no sign-in; every other path goes through
 * the sign-in shell to the main application.
 */
export function AppRoutes(shellProps: AuthShellProps) {
  return (
    <Routes>
      <Route path={SHELL_ROUTES.accountDisabled} element={<AccountDisabledPage />} />
      <Route path={SHELL_ROUTES.unauthorized} element={<UnauthorizedPage />} />
      <Route path={SHELL_ROUTES.unauthorizedAlias} element={<UnauthorizedPage />} />
      <Route path={SHELL_ROUTES.missingTwoFactor} element={<MissingTwoFactorPage />} />
      <Route path={SHELL_ROUTES.serverError} element={<ServerErrorPage showHomeLink />} />
      <Route path={SHELL_ROUTES.loggedOut} element={<LoggedOutPage />} />
      <Route path="*" element={<AuthShell {...shellProps} />} />
    </Routes>
  );
}
