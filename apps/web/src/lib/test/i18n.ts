import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, INTERPOLATION_MAX_REPLACES } from '@mfa-portal/shared';
import { MAIN_NAMESPACES } from '../i18n/namespaces';

/** Every English translation file of the repository, as the server serves them. */
const files = import.meta.glob<Record<string, unknown>>('../../../../../locales/en/*.json', { eager: true, import: 'default' });
export const TRANSLATIONS: Record<string, Record<string, unknown>> = Object.fromEntries(
  Object.entries(files).map(([file, content]) => [file.replace(/^.*\/([^/]+)\.json$/, '$1'), content]),
);

/** Keys the code asked for that no translation file has (each test expects none). */
export const missingKeys: string[] = [];

/**
 * i18next with the real translation files of every namespace, so tests assert the texts users see.
 * A key missing from the files is recorded in `missingKeys` (i18next would otherwise show the key).
 */
export async function createFullTestI18n(): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng: FALLBACK_LANGUAGE,
    fallbackLng: FALLBACK_LANGUAGE,
    ns: ['shell', ...MAIN_NAMESPACES],
    defaultNS: 'shell',
    fallbackNS: 'common',
    resources: { en: TRANSLATIONS },
    saveMissing: true,
    missingKeyHandler: (_lngs, ns, key) => missingKeys.push(`${ns}:${key}`),
    interpolation: { escapeValue: false, maxReplaces: INTERPOLATION_MAX_REPLACES },
  });
  return instance;
}
