export type Platform = 'ios' | 'android' | 'other';

interface UaData {
  platform?: string;
  mobile?: boolean;
  getHighEntropyValues?(hints: string[]): Promise<{ model?: string; platform?: string }>;
}

/** The platform from what the browser says about itself. */
export function platformFrom(userAgent: string, uaPlatform?: string): Platform {
  const p = (uaPlatform ?? '').toLowerCase();
  if (p === 'android' || /android/i.test(userAgent)) return 'android';
  if (p === 'ios' || /iphone|ipad|ipod/i.test(userAgent) || (/macintosh/i.test(userAgent) && /mobile/i.test(userAgent))) return 'ios';
  return 'other';
}

/** A name for a phone that does not tell its model: "Android phone", "iPhone", "iPad", or "This device". */
export function nameFromUserAgent(userAgent: string): string {
  if (/ipad/i.test(userAgent)) return 'iPad';
  if (/iphone|ipod/i.test(userAgent)) return 'iPhone';
  if (/android/i.test(userAgent)) return /mobile/i.test(userAgent) ? 'Android phone' : 'Android tablet';
  if (/windows/i.test(userAgent)) return 'Windows computer';
  if (/macintosh/i.test(userAgent)) return 'Mac';
  if (/linux/i.test(userAgent)) return 'Linux computer';
  return 'This device';
}

/**
 * What the phone calls itself, and its platform: the model from User-Agent Client Hints where the
 * browser gives it (Chromium on Android: "Pixel 8"), otherwise a name from the user-agent string.
 */
export async function describeDevice(nav: Navigator = navigator): Promise<{ name: string; platform: Platform }> {
  const ua = (nav as Navigator & { userAgentData?: UaData }).userAgentData;
  let model = '';
  let uaPlatform = ua?.platform;
  if (ua?.getHighEntropyValues) {
    try {
      const values = await ua.getHighEntropyValues(['model', 'platform']);
      model = (values.model ?? '').trim();
      uaPlatform = values.platform ?? uaPlatform;
    } catch {
      // The browser may refuse high-entropy hints: the user-agent string still gives a fair name.
    }
  }
  return { name: (model || nameFromUserAgent(nav.userAgent)).slice(0, 64), platform: platformFrom(nav.userAgent, uaPlatform) };
}
