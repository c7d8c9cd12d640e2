import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { takeActivationToken } from './activation-link';
import { createTranslator, I18nContext, loadTranslator } from './i18n';
import { FALLBACK_LANGUAGE } from '@mfa-portal/shared/constants';
import { indexedDbStore } from './lib/idb-store';
import './app.css';

const activationToken = takeActivationToken();

// The service worker keeps the app (and its passcodes) available offline and shows notifications.
// Relative to <base href>, the app's own folder: that folder is its scope.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('./sw.js', { scope: './' }).catch(() => {
      // Without it the app still works while online; nothing to tell the person.
    });
  });
}

const store = indexedDbStore();
const root = createRoot(document.getElementById('root')!);
void loadTranslator()
  .catch(() => createTranslator(FALLBACK_LANGUAGE, {}))
  .then((i18n) =>
    root.render(
      <StrictMode>
        <I18nContext.Provider value={i18n}>
          <App store={store} activationToken={activationToken} />
        </I18nContext.Provider>
      </StrictMode>,
    ),
  );
