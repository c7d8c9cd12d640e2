/** Passcodes (TOTP, RFC 6238: HMAC-SHA1, 6 digits, 30 s), computed on the phone so they work offline. */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Decode(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const index = BASE32.indexOf(ch);
    if (index < 0) throw new Error('The passcode seed is not base32.');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

export interface TotpOptions {
  digits?: number;
  period?: number;
  hash?: 'SHA-1' | 'SHA-256' | 'SHA-512';
}

/** HOTP (RFC 4226) of one counter value. */
export async function hotp(
  key: Uint8Array<ArrayBuffer>,
  counter: number,
  digits = 6,
  hash: TotpOptions['hash'] = 'SHA-1',
): Promise<string> {
  const message = new Uint8Array(8);
  const view = new DataView(message.buffer);
  view.setUint32(0, Math.floor(counter / 2 ** 32));
  view.setUint32(4, counter >>> 0);
  const hmacKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, message));
  const offset = mac[mac.length - 1]! & 0x0f;
  const code = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(code % 10 ** digits).padStart(digits, '0');
}

/** The passcode at `timeMs` for a raw key. */
export function totp(key: Uint8Array<ArrayBuffer>, timeMs: number, options: TotpOptions = {}): Promise<string> {
  const period = options.period ?? 30;
  return hotp(key, Math.floor(timeMs / 1000 / period), options.digits ?? 6, options.hash ?? 'SHA-1');
}

/** Seconds left in the current step (what the countdown shows). */
export function secondsLeft(timeMs: number, period = 30): number {
  return period - (Math.floor(timeMs / 1000) % period);
}
