import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  generateTotpSecret,
  hotpCode,
  isWellFormedOtp,
  otpauthUri,
  qrCodeSvg,
  totpCode,
  totpStep,
  verifyHotp,
  verifyHotpSequence,
  verifyTotp,
} from './otp.js';

/** The RFC 4226 / RFC 6238 SHA-1 test secret. */
const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');
/** The same secret in Base32, as an authenticator app would hold it. */
const RFC_SECRET_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

/** Independent HOTP (RFC 4226 §5.3) on node:crypto, to check otplib's codes against. */
function referenceHotp(secret: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = (mac[19] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

const STEP_MS = 30_000;
const secretArb = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => Buffer.from(b));
const PROPERTY_RUNS = { numRuns: 150 };

describe('HOTP codes', () => {
  it('match the RFC 4226 Appendix D vectors', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotpCode(RFC_SECRET, counter))).toEqual(expected);
    expect(expected.map((_, counter) => hotpCode(RFC_SECRET_BASE32, counter))).toEqual(expected);
  });

  it('agree with an independent HMAC implementation for any secret and counter', () => {
    fc.assert(
      fc.property(secretArb, fc.nat({ max: 2 ** 40 }), (secret, counter) => {
        expect(hotpCode(secret, counter)).toBe(referenceHotp(secret, counter));
      }),
      PROPERTY_RUNS,
    );
  });

  it('refuses a negative or fractional counter', () => {
    expect(() => hotpCode(RFC_SECRET, -1)).toThrow(RangeError);
    expect(() => hotpCode(RFC_SECRET, 1.5)).toThrow(RangeError);
  });
});

describe('TOTP codes', () => {
  // RFC 6238 Appendix B, SHA-1, last six digits of the 8-digit values.
  const vectors: Array<[number, string]> = [
    [59, '287082'],
    [1111111109, '081804'],
    [1111111111, '050471'],
    [1234567890, '005924'],
    [2000000000, '279037'],
  ];

  it.each(vectors)('match RFC 6238 at T=%i', (seconds, code) => {
    expect(totpCode(RFC_SECRET, new Date(seconds * 1000))).toBe(code);
    const result = verifyTotp({ secret: RFC_SECRET_BASE32, code, now: new Date(seconds * 1000), lastUsedStep: null, window: 0 });
    expect(result).toEqual({ ok: true, step: Math.floor(seconds / 30) });
  });

  it('computes the 30-second step', () => {
    expect(totpStep(new Date(59_000))).toBe(1);
    expect(totpStep(new Date(60_000))).toBe(2);
    expect(totpStep(0)).toBe(0);
    expect(() => totpStep(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('generateTotpSecret', () => {
  it('gives 20 random bytes in unpadded Base32', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const bytes = Buffer.from(base32Decode(secret));
    expect(bytes.length).toBe(20);
    // The Base32 text and its bytes are the same secret to the code generator.
    expect(hotpCode(secret, 42)).toBe(referenceHotp(bytes, 42));
    expect(generateTotpSecret()).not.toBe(secret);
  });
});

describe('otpauthUri', () => {
  it('names the issuer and account and carries the secret', () => {
    const uri = otpauthUri({ secret: 'JBSWY3DPEHPK3PXP', account: 'alice@example.com', issuer: 'MFA Portal' });
    const url = new URL(uri);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/MFA Portal:alice@example.com');
    expect(url.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(url.searchParams.get('issuer')).toBe('MFA Portal');
    // SHA-1, 6 digits and 30 s: the otpauth defaults, stated all the same (some apps guess otherwise).
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(uri.match(/[?&](secret|issuer|algorithm|digits|period)=/g)).toHaveLength(5);
  });
});

describe('qrCodeSvg', () => {
  it('renders the URI as an SVG document', async () => {
    const a = await qrCodeSvg('otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP&issuer=A');
    const b = await qrCodeSvg('otpauth://totp/B:b?secret=JBSWY3DPEHPK3PXQ&issuer=B');
    expect(a.trimStart().startsWith('<svg')).toBe(true);
    expect(a.trimEnd().endsWith('</svg>')).toBe(true);
    expect(a).toContain('<path');
    expect(a).not.toBe(b);
  });
});

describe('isWellFormedOtp', () => {
  it('accepts exactly six ASCII digits', () => {
    expect(isWellFormedOtp('012345')).toBe(true);
    for (const bad of ['12345', '1234567', ' 123456', '123456 ', '123 456', '12345a', '+12345', '１２３４５６', '١٢٣٤٥٦', '', '123456\n']) {
      expect(isWellFormedOtp(bad), JSON.stringify(bad)).toBe(false);
    }
    expect(isWellFormedOtp(123456)).toBe(false);
  });
});

describe('verifyTotp', () => {
  const now = new Date(1_700_000_000_000);
  const step = totpStep(now);
  const codeAt = (s: number) => hotpCode(RFC_SECRET, s);
  const verify = (code: string, lastUsedStep: number | null, window?: number) =>
    verifyTotp({ secret: RFC_SECRET, code, now, lastUsedStep, window });

  it('accepts the current code and returns its step', () => {
    expect(verify(codeAt(step), null)).toEqual({ ok: true, step });
  });

  it('accepts one step either side by default, not two', () => {
    expect(verify(codeAt(step - 1), null)).toEqual({ ok: true, step: step - 1 });
    expect(verify(codeAt(step + 1), null)).toEqual({ ok: true, step: step + 1 });
    expect(verify(codeAt(step - 2), null)).toEqual({ ok: false, reason: 'invalid' });
    expect(verify(codeAt(step + 2), null)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('honours the window: 0 accepts only the current step, 2 reaches two steps', () => {
    expect(verify(codeAt(step - 1), null, 0)).toEqual({ ok: false, reason: 'invalid' });
    expect(verify(codeAt(step - 2), null, 2)).toEqual({ ok: true, step: step - 2 });
  });

  it('refuses a step already used, and an earlier one, as replayed', () => {
    expect(verify(codeAt(step), step)).toEqual({ ok: false, reason: 'replayed' });
    expect(verify(codeAt(step - 1), step)).toEqual({ ok: false, reason: 'replayed' });
    expect(verify(codeAt(step), step - 1)).toEqual({ ok: true, step });
    expect(verify(codeAt(step + 1), step)).toEqual({ ok: true, step: step + 1 });
  });

  it('refuses a code that is not six ASCII digits before computing', () => {
    const code = codeAt(step);
    for (const bad of [` ${code}`, `${code}\n`, `${code.slice(0, 3)} ${code.slice(3)}`, code.slice(1), `${code}0`]) {
      expect(verify(bad, null), JSON.stringify(bad)).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('refuses a wrong code', () => {
    const window = new Set([step - 1, step, step + 1].map(codeAt));
    let wrong = Number(codeAt(step));
    do wrong = (wrong + 1) % 1_000_000;
    while (window.has(String(wrong).padStart(6, '0')));
    expect(verify(String(wrong).padStart(6, '0'), null)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses programming errors loudly', () => {
    expect(() => verify(codeAt(step), null, -1)).toThrow(RangeError);
    expect(() => verify(codeAt(step), -5)).toThrow(RangeError);
  });

  it('property: accepts the code for now and never a step at or below lastUsedStep', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.integer({ min: 10 * STEP_MS, max: 4_000_000_000_000 }),
        fc.integer({ min: -1, max: 1 }),
        fc.integer({ min: 0, max: 5 }),
        (secret, ms, offset, behind) => {
          const current = Math.floor(ms / STEP_MS);
          const fresh = verifyTotp({ secret, code: totpCode(secret, ms), now: ms, lastUsedStep: current - 1 });
          expect(fresh).toEqual({ ok: true, step: current });

          // The code of a step in the window that was already used (or superseded) is refused,
          // unless it happens to equal the code of a still-fresh step in the window.
          const usedStep = current + offset;
          const lastUsedStep = usedStep + behind;
          const code = hotpCode(secret, usedStep);
          const freshSteps = [current - 1, current, current + 1].filter((s) => s > lastUsedStep);
          fc.pre(!freshSteps.some((s) => hotpCode(secret, s) === code));
          const result = verifyTotp({ secret, code, now: ms, lastUsedStep });
          expect(result).toEqual({ ok: false, reason: 'replayed' });
        },
      ),
      PROPERTY_RUNS,
    );
  });
});

describe('verifyHotp', () => {
  const codeAt = (c: number) => hotpCode(RFC_SECRET, c);

  it('accepts the expected counter and moves past it', () => {
    expect(verifyHotp({ secret: RFC_SECRET, code: '755224', counter: 0 })).toEqual({ ok: true, newCounter: 1 });
    expect(verifyHotp({ secret: RFC_SECRET, code: '520489', counter: 9 })).toEqual({ ok: true, newCounter: 10 });
  });

  it('looks ahead up to lookAhead counters (inclusive), not further', () => {
    expect(verifyHotp({ secret: RFC_SECRET, code: codeAt(110), counter: 100 })).toEqual({ ok: true, newCounter: 111 });
    expect(verifyHotp({ secret: RFC_SECRET, code: codeAt(111), counter: 100 })).toEqual({ ok: false });
    expect(verifyHotp({ secret: RFC_SECRET, code: codeAt(103), counter: 100, lookAhead: 2 })).toEqual({ ok: false });
    expect(verifyHotp({ secret: RFC_SECRET, code: codeAt(102), counter: 100, lookAhead: 2 })).toEqual({ ok: true, newCounter: 103 });
  });

  it('never accepts a counter below the expected one (a used code)', () => {
    expect(verifyHotp({ secret: RFC_SECRET, code: '755224', counter: 1 })).toEqual({ ok: false });
    const first = verifyHotp({ secret: RFC_SECRET, code: codeAt(5), counter: 3 });
    expect(first).toEqual({ ok: true, newCounter: 6 });
    if (!first.ok) return;
    expect(verifyHotp({ secret: RFC_SECRET, code: codeAt(5), counter: first.newCounter })).toEqual({ ok: false });
  });

  it('refuses malformed codes and the Base32 secret works the same', () => {
    expect(verifyHotp({ secret: RFC_SECRET, code: ' 755224', counter: 0 })).toEqual({ ok: false });
    expect(verifyHotp({ secret: RFC_SECRET, code: '75522', counter: 0 })).toEqual({ ok: false });
    expect(verifyHotp({ secret: RFC_SECRET_BASE32, code: '287082', counter: 0 })).toEqual({ ok: true, newCounter: 2 });
  });

  it('property: a success always moves the counter forward, to just past the matched code', () => {
    fc.assert(
      fc.property(secretArb, fc.nat({ max: 1_000_000 }), fc.nat({ max: 10 }), (secret, counter, ahead) => {
        const code = hotpCode(secret, counter + ahead);
        const result = verifyHotp({ secret, code, counter });
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.newCounter).toBeGreaterThan(counter);
        expect(result.newCounter).toBeLessThanOrEqual(counter + ahead + 1);
        // The same code never passes twice.
        expect(verifyHotp({ secret, code, counter: result.newCounter }).ok).toBe(
          // …unless it collides with a later code in the window (1 in a million per counter).
          Array.from({ length: 11 }, (_, i) => hotpCode(secret, result.newCounter + i)).includes(code),
        );
      }),
      PROPERTY_RUNS,
    );
  });
});

describe('verifyHotpSequence', () => {
  const codeAt = (c: number) => hotpCode(RFC_SECRET, c);

  it('claims with two consecutive codes and sets the counter after them', () => {
    expect(verifyHotpSequence({ secret: RFC_SECRET, codes: [codeAt(7), codeAt(8)], counter: 0 })).toEqual({ ok: true, newCounter: 9 });
  });

  it('resyncs with three consecutive codes within the look-ahead', () => {
    expect(verifyHotpSequence({ secret: RFC_SECRET, codes: [codeAt(150), codeAt(151), codeAt(152)], counter: 100 })).toEqual({
      ok: true,
      newCounter: 153,
    });
    expect(verifyHotpSequence({ secret: RFC_SECRET, codes: [codeAt(151), codeAt(152), codeAt(153)], counter: 100 })).toEqual({ ok: false });
  });

  it('refuses codes that are valid but not consecutive, reversed, or before the counter', () => {
    expect(verifyHotpSequence({ secret: RFC_SECRET, codes: [codeAt(3), codeAt(5)], counter: 0 })).toEqual({ ok: false });
    expect(verifyHotpSequence({ secret: RFC_SECRET, codes: [codeAt(4), codeAt(3)], counter: 0 })).toEqual({ ok: false });
    expect(verifyHotpSequence({ secret: RFC_SECRET, codes: [codeAt(3), codeAt(4), codeAt(5)], counter: 4 })).toEqual({ ok: false });
    expect(verifyHotpSequence({ secret: RFC_SECRET, codes: [codeAt(3), codeAt(4), '12345x'], counter: 0 })).toEqual({ ok: false });
  });

  it('refuses an empty list', () => {
    expect(() => verifyHotpSequence({ secret: RFC_SECRET, codes: [], counter: 0 })).toThrow(RangeError);
  });

  it('property: consecutive codes anywhere in the look-ahead resync to just after them', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.nat({ max: 1_000_000 }),
        fc.nat({ max: 50 }),
        fc.integer({ min: 2, max: 3 }),
        (secret, counter, ahead, n) => {
          const codes = Array.from({ length: n }, (_, i) => hotpCode(secret, counter + ahead + i));
          const result = verifyHotpSequence({ secret, codes, counter });
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(result.newCounter).toBeGreaterThan(counter);
          expect(result.newCounter).toBeLessThanOrEqual(counter + ahead + n);
        },
      ),
      PROPERTY_RUNS,
    );
  });
});

function base32Decode(text: string): number[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of text) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return bytes;
}
