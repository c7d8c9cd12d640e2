import { configure, render } from '@testing-library/react';
import en from '../../../../../locales/en/authenticator.json';
import { App } from '../App';
import { createTranslator, I18nContext, type Resources } from '../i18n';
import type { AccountStore } from '../lib/store';

// Generating keys and signing under jsdom, beside the other suites on a busy machine, can pass a second.
configure({ asyncUtilTimeout: 5000 });

/** The app with the repository's real English texts, so tests assert what people read. */
export function renderApp(store: AccountStore, activationToken: string | null = null) {
  return render(
    <I18nContext.Provider value={createTranslator('en', en as Resources)}>
      <App store={store} activationToken={activationToken} />
    </I18nContext.Provider>,
  );
}
