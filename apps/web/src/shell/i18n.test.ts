import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_DETECTION_ORDER, TRANSLATION_MAX_RETRIES, TRANSLATION_RETRY_INITIAL_MS } from '@mfa-portal/shared';
import { createI18n, i18nOptions } from './i18n';

type Answer = { status: number; body?: string };

/** Stubs fetch with a script of answers (the last one repeats) and records when each call happened. */
function stubFetch(answers: Answer[]) {
  const calls: Array<{ url: string; at: number }> = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL) => {
    calls.push({ url: String(input), at: Date.now() });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return new Response(answer.body ?? '', { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchStub);
  return calls;
}

const SHELL_JSON = JSON.stringify({ status: { authenticating: 'Authenticating...' } });

describe('i18n retry policy (real i18next + i18next-http-backend, stubbed fetch)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a 5xx answer 5 times, waiting 350, 700, 1400, 2800 and 5600 ms, then gives up', async () => {
    const calls = stubFetch([{ status: 503 }]);
    const { ready } = createI18n({ basePath: '/', namespaces: ['shell'] });
    await vi.advanceTimersByTimeAsync(60_000);
    await ready;

    expect(calls).toHaveLength(1 + TRANSLATION_MAX_RETRIES);
    const waits = calls.slice(1).map((c, i) => c.at - calls[i]!.at);
    expect(waits).toEqual([350, 700, 1400, 2800, 5600]);
    expect(waits[0]).toBe(TRANSLATION_RETRY_INITIAL_MS);
    expect(new Set(calls.map((c) => c.url))).toEqual(new Set(['/locales/en/shell.json']));
  });

  it('stops retrying as soon as a retry succeeds, and uses the loaded texts', async () => {
    const calls = stubFetch([{ status: 500 }, { status: 502 }, { status: 200, body: SHELL_JSON }]);
    const { i18n, ready } = createI18n({ basePath: '/', namespaces: ['shell'] });
    await vi.advanceTimersByTimeAsync(60_000);
    await ready;

    expect(calls.map((c) => c.at)).toEqual([0, 350, 1050]);
    expect(i18n.t('status.authenticating', { ns: 'shell' })).toBe('Authenticating...');
  });

  it('does not retry a 404', async () => {
    const calls = stubFetch([{ status: 404, body: '{"code":"locale.not_found"}' }]);
    const { ready } = createI18n({ basePath: '/', namespaces: ['shell'] });
    await vi.advanceTimersByTimeAsync(60_000);
    await ready;
    expect(calls).toHaveLength(1);
  });

  it('does not retry other 4xx answers', async () => {
    const calls = stubFetch([{ status: 429 }]);
    const { ready } = createI18n({ basePath: '/', namespaces: ['shell'] });
    await vi.advanceTimersByTimeAsync(60_000);
    await ready;
    expect(calls).toHaveLength(1);
  });

  it('does not retry a body that is not valid JSON', async () => {
    const calls = stubFetch([{ status: 200, body: '<html>not json</html>' }]);
    const { i18n, ready } = createI18n({ basePath: '/', namespaces: ['shell'] });
    await vi.advanceTimersByTimeAsync(60_000);
    await ready;
    expect(calls).toHaveLength(1);
    expect(i18n.hasResourceBundle('en', 'shell')).toBe(false);
  });

  it('loads translations from under the base path', async () => {
    const calls = stubFetch([{ status: 200, body: SHELL_JSON }]);
    const { ready } = createI18n({ basePath: '/portal/', namespaces: ['shell'] });
    await vi.advanceTimersByTimeAsync(0);
    await ready;
    expect(calls.map((c) => c.url)).toEqual(['/portal/locales/en/shell.json']);
  });
});

describe('i18n options', () => {
  it('is English only, detects in the spec order and caches in localStorage', () => {
    const o = i18nOptions({ basePath: '/portal/' });
    expect(o.supportedLngs).toEqual(['en']);
    expect(o.fallbackLng).toBe('en');
    expect(o.detection.order).toEqual([...LANGUAGE_DETECTION_ORDER]);
    expect(o.detection.order).toEqual(['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag']);
    expect(o.detection.lookupQuerystring).toBe('lng');
    expect(o.detection.caches).toEqual(['localStorage']);
    expect(o.interpolation?.escapeValue).toBe(false);
    expect(o.backend?.loadPath).toBe('/portal/locales/{{lng}}/{{ns}}.json');
    expect(o.backend?.addPath).toBe('/portal/locales/add/{{lng}}/{{ns}}');
  });

  it('stops interpolating after 1000 replacements in one string (spec §9), however many placeholders it has', async () => {
    const many = Array.from({ length: 1200 }, () => '{{v}}').join(' ');
    stubFetch([{ status: 200, body: JSON.stringify({ many, few: '{{v}} and {{v}}' }) }]);
    const { i18n, ready } = createI18n({ basePath: '/', namespaces: ['shell'] });
    await ready;
    expect(i18n.t('few', { v: 'x' })).toBe('x and x');
    const words = i18n.t('many', { v: 'x' }).split(' ');
    expect(words).toHaveLength(1200);
    expect(words.filter((w) => w === 'x')).toHaveLength(1000);
    expect(words.slice(1000).every((w) => w === '{{v}}')).toBe(true);
  });

  it('reports missing keys only in development', () => {
    expect(i18nOptions({ basePath: '/' }).saveMissing).toBe(false);
    expect(i18nOptions({ basePath: '/', development: true }).saveMissing).toBe(true);
  });

  it('falls back to English for another requested language and caches the choice', async () => {
    stubFetch([{ status: 200, body: SHELL_JSON }]);
    window.history.pushState({}, '', '/?lng=de');
    try {
      const { i18n, ready } = createI18n({ basePath: '/', namespaces: ['shell'] });
      await ready;
      expect(i18n.language).toBe('en');
      expect(i18n.resolvedLanguage).toBe('en');
      expect(window.localStorage.getItem('i18nextLng')).toBe('en');
      expect(i18n.t('status.authenticating')).toBe('Authenticating...');
    } finally {
      window.history.pushState({}, '', '/');
    }
  });
});
