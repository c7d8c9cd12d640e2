import { describe, expect, it } from 'vitest';
import { base32Decode, hotp, secondsLeft, totp } from './totp';

// RFC 6238 appendix B: the SHA-1 seed is the ASCII "12345678901234567890".
const SEED_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('passcodes (TOTP)', () => {
  it('decodes the base32 seed (spaces, lower case and padding allowed)', () => {
    expect(new TextDecoder().decode(base32Decode(SEED_BASE32))).toBe('12345678901234567890');
    expect(new TextDecoder().decode(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq===='))).toBe('12345678901234567890');
    expect(() => base32Decode('not base32!')).toThrow(/base32/);
  });

  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('matches the RFC 6238 SHA-1 vector at %i s', async (seconds, expected) => {
    const key = base32Decode(SEED_BASE32);
    expect(await totp(key, seconds * 1000, { digits: 8 })).toBe(expected);
    // Six digits, as the app shows them: the same value's last six.
    expect(await totp(key, seconds * 1000)).toBe(expected.slice(2));
  });

  it('matches the RFC 4226 HOTP vectors', async () => {
    const key = base32Decode(SEED_BASE32);
    const codes = await Promise.all([0, 1, 2, 9].map((c) => hotp(key, c)));
    expect(codes).toEqual(['755224', '287082', '359152', '520489']);
  });

  it('counts down the seconds left in the 30-second step', () => {
    expect(secondsLeft(0)).toBe(30);
    expect(secondsLeft(29_999)).toBe(1);
    expect(secondsLeft(45_000)).toBe(15);
  });
});
