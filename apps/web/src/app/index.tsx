import { useTranslation } from 'react-i18next';
import { MAIN_NAMESPACES } from '../lib/i18n/namespaces';
import { AppLayout } from './layout/AppLayout';
import { AppProvider } from './provider';
import { AppRouter } from './router';

/**
 * The main application, loaded lazily by the sign-in shell (main.tsx hands it over) once the user and
 * their profile are known. `app/` is its composition root: the providers (provider.tsx), the layout
 * (layout/) and the routes of every feature (router.tsx). It is the one place that imports features.
 */
export default function MainApp() {
  // All namespaces at once (Suspense shows the shell's "Loading..." meanwhile).
  useTranslation([...MAIN_NAMESPACES]);
  return (
    <AppProvider>
      <AppLayout>
        <AppRouter />
      </AppLayout>
    </AppProvider>
  );
}
