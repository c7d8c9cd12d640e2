import { afterEach, describe, expect, it, vi } from 'vitest';
import { basePathFrom, routerBasename, underBase } from './base-path';
import { loadSettings } from './settings';

/** Puts `<base href>` into the page's head, as the server does with the configured base path. */
function setBase(href: string): void {
  document.head.querySelectorAll('base').forEach((b) => b.remove());
  const base = document.createElement('base');
  base.setAttribute('href', href);
  document.head.prepend(base);
}

afterEach(() => {
  document.head.querySelectorAll('base').forEach((b) => b.remove());
  vi.unstubAllGlobals();
});

describe('base path from <base href>', () => {
  it('reads the base path from the page base element', () => {
    setBase('/portal/');
    expect(basePathFrom()).toBe('/portal/');
    expect(routerBasename()).toBe('/portal');
    expect(underBase('/settings/APIInfo')).toBe('/portal/settings/APIInfo');

    setBase('https://portal.example.com/mfa/self-service/');
    expect(basePathFrom()).toBe('/mfa/self-service/');
  });

  it('is the root without a base element', () => {
    expect(basePathFrom()).toBe('/');
    expect(routerBasename()).toBe('/');
  });

  it('makes the client ask for its settings under the base path', async () => {
    setBase('/portal/');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        urls.push(String(input));
        return new Response('not json', { status: 200 });
      }),
    );
    await loadSettings();
    expect(urls.sort()).toEqual(['/portal/settings/AADClientInfo', '/portal/settings/APIInfo']);
  });
});
