import { describe, expect, it } from 'vitest';
import { deviceSignals, isMobileDevice, type DeviceSignals } from './mobile-device';

const DESKTOP: DeviceSignals = {
  uaDataMobile: false,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  maxTouchPoints: 0,
  coarsePointer: false,
  smallScreen: false,
};

describe('isMobileDevice', () => {
  it('is false for a desktop browser', () => {
    expect(isMobileDevice(DESKTOP)).toBe(false);
  });

  it('believes userAgentData when it says mobile', () => {
    expect(isMobileDevice({ ...DESKTOP, uaDataMobile: true })).toBe(true);
  });

  it.each([
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
    // An Android tablet's Chrome says mobile: false in userAgentData, but it still holds authenticator apps.
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  ])('is true for %s', (userAgent) => {
    expect(isMobileDevice({ ...DESKTOP, uaDataMobile: undefined, userAgent })).toBe(true);
  });

  it('recognises an iPad asking for the desktop site by its touch points, not a Mac', () => {
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
    expect(isMobileDevice({ ...DESKTOP, uaDataMobile: undefined, userAgent: mac, maxTouchPoints: 5 })).toBe(true);
    expect(isMobileDevice({ ...DESKTOP, uaDataMobile: undefined, userAgent: mac, maxTouchPoints: 0 })).toBe(false);
  });

  it('falls back to a finger on a small screen, not a finger alone nor a small window alone', () => {
    const unknown = { ...DESKTOP, uaDataMobile: undefined, userAgent: 'SomeBrowser/1.0' };
    expect(isMobileDevice({ ...unknown, coarsePointer: true, smallScreen: true })).toBe(true);
    expect(isMobileDevice({ ...unknown, coarsePointer: true, smallScreen: false })).toBe(false);
    expect(isMobileDevice({ ...unknown, coarsePointer: false, smallScreen: true })).toBe(false);
  });
});

describe('deviceSignals', () => {
  it('reads the browser: jsdom is no phone', () => {
    const signals = deviceSignals();
    expect(signals.userAgent).toMatch(/jsdom/);
    expect(isMobileDevice(signals)).toBe(false);
  });
});
