import { describe, expect, it, vi } from 'vitest';
import { takeActivationToken } from './activation-link';
import { nameFromUserAgent, platformFrom } from './lib/device-info';
import { appPathFrom, apiPath, portalBaseFrom } from './lib/paths';

describe('the activation link', () => {
  it('takes the token from the fragment and removes it from the address bar', () => {
    const history = { state: null, replaceState: vi.fn() } as unknown as History;
    const location = { hash: '#activate=abc_DEF-123', pathname: '/portal/authenticator/', search: '' } as Location;
    expect(takeActivationToken(location, history)).toBe('abc_DEF-123');
    expect(history.replaceState).toHaveBeenCalledWith(null, '', '/portal/authenticator/');
  });

  it('leaves an address without a token alone', () => {
    const history = { state: null, replaceState: vi.fn() } as unknown as History;
    expect(takeActivationToken({ hash: '', pathname: '/authenticator/', search: '' } as Location, history)).toBeNull();
    expect(history.replaceState).not.toHaveBeenCalled();
  });
});

describe('where the app lives', () => {
  it("finds the portal's base path from the app folder in <base href>", () => {
    expect(appPathFrom('https://mfa.example.org/portal/authenticator/')).toBe('/portal/authenticator/');
    expect(portalBaseFrom('https://mfa.example.org/portal/authenticator/')).toBe('/portal/');
    expect(portalBaseFrom('https://mfa.example.org/authenticator/index.html')).toBe('/');
    expect(apiPath('requests', 'https://mfa.example.org/portal/authenticator/')).toBe('/portal/authenticator/api/requests');
  });
});

describe("the phone's name and platform", () => {
  const PIXEL = 'Mozilla/5.0 (Linux; Android 14; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
  const IPHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  it.each([
    [PIXEL, 'Android phone', 'android'],
    [IPHONE, 'iPhone', 'ios'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64)', 'Windows computer', 'other'],
  ])('%s → %s (%s)', (ua, name, platform) => {
    expect(nameFromUserAgent(ua)).toBe(name);
    expect(platformFrom(ua)).toBe(platform);
  });
});
