import i18next, { type i18n as I18n, type InitOptions } from 'i18next';
import HttpBackend, { type HttpBackendOptions } from 'i18next-http-backend';
import LanguageDetector, { type DetectorOptions } from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import {
  API_PATHS,
  FALLBACK_LANGUAGE,
  INTERPOLATION_MAX_REPLACES,
  LANGUAGE_CACHES,
  LANGUAGE_DETECTION_ORDER,
  LANGUAGE_QUERY_PARAMETER,
  SUPPORTED_LANGUAGES,
  TRANSLATION_MAX_RETRIES,
  TRANSLATION_RETRY_INITIAL_MS,
} from '@mfa-portal/shared';
import { basePathFrom, underBase } from './base-path';

/** Namespaces the shell needs before anything is shown; the main application loads `main` itself. */
export const SHELL_NAMESPACES = ['shell', 'common'] as const;

export interface I18nSetup {
  basePath?: string;
  /** Report missing keys to the server (development builds only). */
  development?: boolean;
  namespaces?: readonly string[];
}

/**
 * i18next options: languages, namespaces, language detection and the translation files' addresses.
 * Retrying is i18next's: the backend flags a failure as retryable (5xx, no status, network error) or
 * not (4xx, unparsable body), and i18next retries the retryable ones at most `maxRetries` times,
 * waiting `retryTimeout` ms first and doubling the wait each time.
 */
export function i18nOptions(setup: I18nSetup = {}): InitOptions<HttpBackendOptions> & { detection: DetectorOptions } {
  const basePath = setup.basePath ?? basePathFrom();
  const development = setup.development ?? false;
  return {
    supportedLngs: [...SUPPORTED_LANGUAGES],
    fallbackLng: FALLBACK_LANGUAGE,
    ns: [...(setup.namespaces ?? SHELL_NAMESPACES)],
    defaultNS: 'shell',
    fallbackNS: 'common',
    maxRetries: TRANSLATION_MAX_RETRIES,
    retryTimeout: TRANSLATION_RETRY_INITIAL_MS,
    saveMissing: development,
    backend: {
      loadPath: underBase(API_PATHS.locales, basePath),
      addPath: underBase(API_PATHS.localesAdd, basePath),
    },
    detection: {
      order: [...LANGUAGE_DETECTION_ORDER],
      lookupQuerystring: LANGUAGE_QUERY_PARAMETER,
      caches: [...LANGUAGE_CACHES],
    },
    interpolation: { escapeValue: false, maxReplaces: INTERPOLATION_MAX_REPLACES },
  };
}

/** A fresh i18next instance with the HTTP backend, the language detector and react-i18next. */
export function createI18n(setup: I18nSetup = {}): { i18n: I18n; ready: Promise<unknown> } {
  const instance = i18next.createInstance();
  instance.on('languageChanged', (lng) => {
    if (typeof document !== 'undefined') document.documentElement.lang = lng;
  });
  const ready = instance.use(HttpBackend).use(LanguageDetector).use(initReactI18next).init(i18nOptions(setup));
  return { i18n: instance, ready };
}
