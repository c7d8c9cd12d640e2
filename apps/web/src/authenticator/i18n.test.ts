import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en/authenticator.json';
import { createTranslator, loadTranslator, preferredLanguage, type Resources } from './i18n';

describe("the app's texts", () => {
  afterEach(() => vi.unstubAllGlobals());
  const { t } = createTranslator('en', en as Resources);

  it('reads nested keys, interpolates and picks the plural form like i18next', () => {
    expect(t('activate.ready_title', { upn: 'bob@example.com' })).toBe('This phone is ready for bob@example.com');
    expect(t('request.expires_in', { count: 1 })).toBe('1 second');
    expect(t('request.expires_in', { count: 42 })).toBe('42 seconds');
    expect(t('errors.authenticator.activation_expired')).toMatch(
      /^This activation link has expired\. Ask for a new link on the portal's Add a device page\.$/,
    );
    expect(t('no.such.key')).toBe('no.such.key');
  });

  it('prefers a language the portal has, else English', () => {
    expect(preferredLanguage(['de-DE', 'en-GB'])).toBe('en');
    expect(preferredLanguage(['fr'])).toBe('en');
  });

  it("loads the namespace from the portal's locales address under the base path", async () => {
    const fetchStub = vi.fn(async () => new Response(JSON.stringify({ home: { title: 'From the server' } }), { status: 200 }));
    vi.stubGlobal('fetch', fetchStub);
    const translator = await loadTranslator('/portal/', 'en', async () => ({}));
    expect(fetchStub).toHaveBeenCalledWith('/portal/locales/en/authenticator.json', expect.anything());
    expect(translator.t('home.title')).toBe('From the server');
  });

  it('falls back to the built-in copy offline', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    const translator = await loadTranslator('/', 'en', async () => en as Resources);
    expect(translator.t('request.approve')).toBe('Approve');
  });
});
