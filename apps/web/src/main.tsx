import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './shell/styles/shell.css';
import { App } from './shell/App';
import { LoadingFallback } from './shell/components/Spinner';
import { createI18n } from './shell/i18n';
import { lazyWithTimeout } from './shell/lazy-with-timeout';
import { registerServiceWorker } from './shell/service-worker-registration';
import { loadSettings } from './shell/settings';
import { startUp } from './shell/startup';

/**
 * The main application (app/): its own chunk, rendered once the shell knows the user and their
 * profile. Its download starts as soon as someone is signed in, in parallel with the token and
 * profile calls (one import promise shared with React.lazy; reset on failure so a retry fetches again).
 */
let mainAppChunk: Promise<typeof import('./app')> | undefined;
const loadMainApp = () =>
  (mainAppChunk ??= import('./app').catch((error: unknown) => {
    mainAppChunk = undefined;
    throw error;
  }));
const MainApp = lazyWithTimeout(loadMainApp);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
root.render(
  <StrictMode>
    <LoadingFallback />
  </StrictMode>,
);

// Translations start loading at once; the pages wait for them through Suspense.
const { i18n } = createI18n({ development: import.meta.env.DEV });
registerServiceWorker({ production: import.meta.env.PROD });

void startUp({ loadSettings: () => loadSettings() }).then((startup) => {
  // Failures show when the chunk is rendered (ChunkErrorBoundary), not here.
  if (startup.kind === 'ready' && startup.instance.getActiveAccount()) loadMainApp().catch(() => undefined);
  root.render(<App i18n={i18n} startup={startup} mainApp={MainApp} />);
});
