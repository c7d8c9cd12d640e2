import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, INTERPOLATION_MAX_REPLACES } from '@mfa-portal/shared';
import common from '../../../../locales/en/common.json';
import errors from '../../../../locales/en/errors.json';
import main from '../../../../locales/en/main.json';
import shell from '../../../../locales/en/shell.json';

/**
 * An i18next instance holding the repository's real English translation files, so tests assert the
 * exact texts users see (and fail when a key is missing: i18next would show the key instead).
 */
export async function createTestI18n(): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng: FALLBACK_LANGUAGE,
    fallbackLng: FALLBACK_LANGUAGE,
    ns: ['shell', 'common', 'main', 'errors'],
    defaultNS: 'shell',
    fallbackNS: 'common',
    resources: { en: { common, errors, main, shell } },
    interpolation: { escapeValue: false, maxReplaces: INTERPOLATION_MAX_REPLACES },
  });
  return instance;
}
