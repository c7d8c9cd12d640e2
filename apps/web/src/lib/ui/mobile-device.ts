/**
 * Whether the portal is open on a phone or tablet, so a step that would send the person to "their
 * phone" can act on this one instead (open the authenticator app, open an activation link). Decided
 * from what the browser says of itself, most direct first:
 * - `navigator.userAgentData.mobile` (Chromium) when it says true;
 * - a user agent naming Android, an iPhone, iPad or iPod, or an iPad that calls itself a Mac (touch points);
 * - otherwise a coarse pointer (a finger) on a small screen.
 * A wrong guess costs little: both ways stay on the page, only their order changes.
 */
export interface DeviceSignals {
  /** `navigator.userAgentData?.mobile`, where the browser has it. */
  uaDataMobile?: boolean | undefined;
  userAgent: string;
  maxTouchPoints: number;
  /** `(pointer: coarse)` matches: the main pointer is a finger. */
  coarsePointer: boolean;
  /** The screen is phone-sized (its shorter side at most 48rem). */
  smallScreen: boolean;
}

const MOBILE_USER_AGENT = /\b(Android|iPhone|iPad|iPod)\b/i;

export function isMobileDevice(signals: DeviceSignals): boolean {
  if (signals.uaDataMobile === true) return true;
  if (MOBILE_USER_AGENT.test(signals.userAgent)) return true;
  // iPadOS asks for desktop sites by default: Safari then says "Macintosh", but a Mac has no touch screen.
  if (/\bMacintosh\b/.test(signals.userAgent) && signals.maxTouchPoints > 1) return true;
  return signals.coarsePointer && signals.smallScreen;
}

/** The signals of this browser. */
export function deviceSignals(win: Window = window): DeviceSignals {
  const nav = win.navigator as Navigator & { userAgentData?: { mobile?: boolean } };
  const matches = (query: string) => (typeof win.matchMedia === 'function' ? win.matchMedia(query).matches : false);
  return {
    uaDataMobile: nav.userAgentData?.mobile,
    userAgent: nav.userAgent ?? '',
    maxTouchPoints: nav.maxTouchPoints ?? 0,
    coarsePointer: matches('(pointer: coarse)'),
    smallScreen: Math.min(win.screen?.width ?? Infinity, win.screen?.height ?? Infinity) <= 768,
  };
}

/** Whether this browser runs on a phone or tablet (see {@link isMobileDevice}); read once per page. */
export function isThisAMobileDevice(win: Window = window): boolean {
  return isMobileDevice(deviceSignals(win));
}
