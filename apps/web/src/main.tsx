import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './shell/styles/shell.css';
import { App } from './shell/App';
import { LoadingFallback } from './shell/components/Spinner';
import { createI18n } from './shell/i18n';
import { registerServiceWorker } from './shell/service-worker-registration';
import { loadSettings } from './shell/settings';
import { startUp } from './shell/startup';

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
  root.render(<App i18n={i18n} startup={startup} />);
});
