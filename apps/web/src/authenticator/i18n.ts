import { createContext, useContext } from 'react';
import { portalBaseFrom } from './lib/paths';
import { API_PATHS, FALLBACK_LANGUAGE, INTERPOLATION_MAX_REPLACES, SUPPORTED_LANGUAGES } from '@mfa-portal/shared/constants';

/**
 * The app's texts: the `authenticator` namespace of the portal's translation files, in i18next's
 * format (nested keys, `{{name}}` interpolation, `_one`/`_other` plurals), fetched from the same
 * address the portal's pages use. The app reads them with the few lines below rather than i18next
 * itself: React alone is most of the first download's budget, and i18next would add a fifth again.
 */
export const NAMESPACE = 'authenticator';

export interface Resources {
  [key: string]: string | Resources;
}
export type TOptions = Record<string, unknown> & { count?: number };
export type TFunction = (key: string, options?: TOptions) => string;
export interface Translator {
  language: string;
  t: TFunction;
}

/** A key's value; like i18next, a member whose own name contains dots (an error code) is found too. */
function find(node: string | Resources | undefined, parts: string[]): string | undefined {
  if (parts.length === 0) return typeof node === 'string' ? node : undefined;
  if (node === undefined || typeof node === 'string') return undefined;
  for (let i = parts.length; i > 0; i--) {
    const found = find(node[parts.slice(0, i).join('.')], parts.slice(i));
    if (found !== undefined) return found;
  }
  return undefined;
}

export function createTranslator(language: string, resources: Resources): Translator {
  const plural = new Intl.PluralRules(language);
  const t: TFunction = (key, options = {}) => {
    const parts = key.split('.');
    const count = options.count;
    const text =
      (typeof count === 'number' ? find(resources, [...parts.slice(0, -1), `${parts.at(-1)}_${plural.select(count)}`]) : undefined) ??
      find(resources, parts) ??
      key;
    let replaced = 0;
    return text.replace(/{{\s*([\w.]+)\s*}}/g, (whole, name: string) =>
      ++replaced > INTERPOLATION_MAX_REPLACES || options[name] === undefined ? whole : String(options[name]),
    );
  };
  return { language, t };
}

/** The language the browser prefers among those the portal has, else the fallback. */
export function preferredLanguage(languages: readonly string[] = navigator.languages ?? []): string {
  const supported: readonly string[] = SUPPORTED_LANGUAGES;
  return languages.map((l) => l.toLowerCase().split('-')[0]!).find((l) => supported.includes(l)) ?? FALLBACK_LANGUAGE;
}

/** The English copy built into the app: its own chunk, fetched only when the portal cannot be reached. */
const builtInEnglish = () => import('../../../../locales/en/authenticator.json').then((m) => m.default as Resources);

/**
 * Loads the texts from the portal (`<base>locales/<lng>/authenticator.json`); offline, or when the
 * server fails, from the service worker's copy or the one built in, so passcodes never show bare keys.
 */
export async function loadTranslator(
  basePath: string = portalBaseFrom(),
  language: string = preferredLanguage(),
  builtIn: () => Promise<Resources> = builtInEnglish,
): Promise<Translator> {
  const url = basePath + API_PATHS.locales.replace(/^\//, '').replace('{{lng}}', language).replace('{{ns}}', NAMESPACE);
  const resources = await fetch(url, { headers: { accept: 'application/json' } })
    .then((response) => (response.ok ? (response.json() as Promise<Resources>) : Promise.reject(new Error(String(response.status)))))
    .catch(() => builtIn());
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  return createTranslator(language, resources);
}

export const I18nContext = createContext<Translator>(createTranslator(FALLBACK_LANGUAGE, {}));

export function useT(): TFunction {
  return useContext(I18nContext).t;
}
