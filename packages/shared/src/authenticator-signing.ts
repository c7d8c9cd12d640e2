/**
 * How a device of the portal's authenticator app proves itself: the bytes it signs. Free of zod, so
 * the app (whose first download has a budget) imports this file alone (`@mfa-portal/shared/authenticator-signing`).
 */

/** How far a signed request's time may be from the server's (clock skew and transit). */
export const DEVICE_SIGNATURE_WINDOW_SECONDS = 120;
/** The authorization scheme of a request signed by a device key. */
export const DEVICE_AUTH_SCHEME = 'PortalDevice';

/** What the app signs to answer a push (the members of the answer schema in authenticator-api.ts). */
export interface SignedPushAnswer {
  requestId: string;
  number: string | null;
  decision: 'approve' | 'deny';
  time: string;
}

/**
 * The bytes a device signs to authenticate a request to the app API: method, path (as requested,
 * without the query) and the time in milliseconds, one per line. Sent as
 * `Authorization: PortalDevice deviceId="…", ts="…", sig="…"`.
 */
export function deviceAuthSigningInput(method: string, path: string, ts: number): string {
  return `${method.toUpperCase()}\n${path}\n${ts}`;
}

export function deviceAuthHeader(deviceId: string, ts: number, sig: string): string {
  return `${DEVICE_AUTH_SCHEME} deviceId="${deviceId}", ts="${ts}", sig="${sig}"`;
}

/** Parses the header {@link deviceAuthHeader} writes; null when it is anything else. */
export function parseDeviceAuthHeader(header: string | undefined): { deviceId: string; ts: number; sig: string } | null {
  if (!header || header.length > 512) return null;
  const m = /^PortalDevice deviceId="([0-9a-fA-F-]{36})", ts="([0-9]{1,16})", sig="([A-Za-z0-9_-]{86})"$/.exec(header.trim());
  if (!m) return null;
  return { deviceId: m[1]!.toLowerCase(), ts: Number(m[2]), sig: m[3]! };
}

/** The bytes a device signs to answer a push: the answer's members in a fixed order, as JSON. */
export function answerSigningInput(answer: SignedPushAnswer): string {
  return JSON.stringify({ requestId: answer.requestId, number: answer.number, decision: answer.decision, time: answer.time });
}
