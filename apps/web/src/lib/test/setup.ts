import { afterEach, beforeEach, expect } from 'vitest';
import { missingKeys } from './i18n';

/**
 * Shared hooks of the main application's route tests (import this file first): browser APIs jsdom
 * lacks and antd uses, and a check that no translation key was missing.
 */
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

beforeEach(() => {
  missingKeys.length = 0;
});

afterEach(() => {
  expect(missingKeys, 'translation keys missing from locales/en').toEqual([]);
});
