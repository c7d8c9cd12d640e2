import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSecretBox, parseKey, SecretBoxError, type SecretBoxErrorCode } from './secret-box.js';

const KEY_A = Buffer.alloc(32, 0xa1);
const KEY_B = Buffer.alloc(32, 0xb2);
const AAD = 'mfa_device:0b6f5b2e-0000-4000-8000-000000000001';
const PROPERTY_RUNS = { numRuns: 150 };

function errorCode(action: () => unknown): SecretBoxErrorCode | 'no error' | 'other error' {
  try {
    action();
    return 'no error';
  } catch (error) {
    return error instanceof SecretBoxError ? error.code : 'other error';
  }
}

describe('createSecretBox', () => {
  const box = createSecretBox(KEY_A, 'k1');

  it('round-trips strings and bytes, including empty ones', () => {
    expect(box.open(box.seal('JBSWY3DPEHPK3PXP', AAD), AAD).toString('utf8')).toBe('JBSWY3DPEHPK3PXP');
    const seed = randomBytes(20);
    expect(box.open(box.seal(seed, AAD), AAD).equals(seed)).toBe(true);
    expect(box.open(box.seal('', AAD), AAD).length).toBe(0);
  });

  it('writes the versioned, self-describing format and does not contain the plaintext', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', AAD);
    expect(sealed).toMatch(/^v1\.k1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(Buffer.from(sealed.split('.')[4] ?? '', 'base64url').toString('utf8')).not.toBe('JBSWY3DPEHPK3PXP');
  });

  it('uses a fresh IV for every seal', () => {
    const ivs = new Set(Array.from({ length: 50 }, () => box.seal('same', AAD).split('.')[2]));
    expect(ivs.size).toBe(50);
  });

  it('refuses another row (wrong AAD)', () => {
    const sealed = box.seal('secret', 'mfa_device:1');
    expect(errorCode(() => box.open(sealed, 'mfa_device:2'))).toBe('authentication_failed');
    expect(errorCode(() => box.open(sealed, 'mfa_device:1 '))).toBe('authentication_failed');
  });

  it('refuses a wrong key under the same id', () => {
    const sealed = box.seal('secret', AAD);
    expect(errorCode(() => createSecretBox(KEY_B, 'k1').open(sealed, AAD))).toBe('authentication_failed');
  });

  it('refuses a value sealed with a key id it does not hold', () => {
    const sealed = createSecretBox(KEY_B, 'k2').seal('secret', AAD);
    expect(errorCode(() => box.open(sealed, AAD))).toBe('unknown_key');
  });

  it('authenticates the key id: relabelling a value with another held key id fails', () => {
    const both = createSecretBox(KEY_A, 'k1', { previousKeys: { k0: KEY_A } });
    const relabelled = both.seal('secret', AAD).replace(/^v1\.k1\./, 'v1.k0.');
    expect(errorCode(() => both.open(relabelled, AAD))).toBe('authentication_failed');
  });

  it('refuses malformed values with a typed error', () => {
    const sealed = box.seal('secret', AAD);
    const [, , iv, tag, ct] = sealed.split('.') as [string, string, string, string, string];
    const cases = [
      '',
      'garbage',
      sealed.replace(/^v1\./, 'v2.'),
      `${sealed}.extra`,
      `v1.k1.${iv}.${tag}`,
      `v1.k1.${iv.slice(0, 12)}.${tag}.${ct}`,
      `v1.k1.${iv}.${tag.slice(0, 16)}.${ct}`,
      `v1.k1.${iv}.${tag}.${ct}=`,
      `v1.k1.${iv}.${tag}.${ct}!`,
      `v1.k.1.${iv}.${tag}.${ct}`,
    ];
    for (const bad of cases)
      expect(
        errorCode(() => box.open(bad, AAD)),
        bad,
      ).toBe('malformed');
  });

  it('refuses a non-canonical last base64url character (same bytes, different text)', () => {
    const sealed = box.seal('secret', AAD);
    const parts = sealed.split('.');
    const tag = parts[3] ?? '';
    // 16 bytes in 22 characters: the last character carries 4 unused bits.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(tag.at(-1) ?? 'A');
    const sibling = alphabet[last ^ 1] ?? 'A';
    parts[3] = tag.slice(0, -1) + sibling;
    expect(Buffer.from(parts[3], 'base64url').equals(Buffer.from(tag, 'base64url'))).toBe(true);
    expect(errorCode(() => box.open(parts.join('.'), AAD))).toBe('malformed');
  });

  it('requires a non-empty AAD', () => {
    expect(() => box.seal('secret', '')).toThrow(TypeError);
    expect(() => box.open(box.seal('secret', AAD), '')).toThrow(TypeError);
  });

  it('refuses bad keys and key ids', () => {
    expect(errorCode(() => createSecretBox(Buffer.alloc(16), 'k1'))).toBe('invalid_key');
    expect(errorCode(() => createSecretBox(Buffer.alloc(33), 'k1'))).toBe('invalid_key');
    expect(errorCode(() => createSecretBox(KEY_A, 'k.1'))).toBe('invalid_key');
    expect(errorCode(() => createSecretBox(KEY_A, ''))).toBe('invalid_key');
    expect(errorCode(() => createSecretBox(KEY_A, 'k1', { previousKeys: { k0: Buffer.alloc(31) } }))).toBe('invalid_key');
  });

  it('keeps its own copy of the key', () => {
    const key = Buffer.from(KEY_A);
    const own = createSecretBox(key, 'k1');
    const sealed = own.seal('secret', AAD);
    key.fill(0);
    expect(own.open(sealed, AAD).toString()).toBe('secret');
  });
});

describe('key rotation', () => {
  const oldBox = createSecretBox(KEY_A, 'k1');
  const newBox = createSecretBox(KEY_B, 'k2', { previousKeys: new Map([['k1', KEY_A]]) });

  it('opens values sealed with a previous key and seals with the current one', () => {
    const old = oldBox.seal('seed', AAD);
    expect(newBox.open(old, AAD).toString()).toBe('seed');
    const fresh = newBox.seal('seed', AAD);
    expect(fresh.startsWith('v1.k2.')).toBe(true);
    expect(errorCode(() => oldBox.open(fresh, AAD))).toBe('unknown_key');
  });

  it('tells which values need re-sealing', () => {
    expect(newBox.currentKeyId).toBe('k2');
    expect(newBox.needsReseal(oldBox.seal('seed', AAD))).toBe(true);
    expect(newBox.needsReseal(newBox.seal('seed', AAD))).toBe(false);
  });
});

describe('parseKey', () => {
  it('decodes a 32-byte key in base64 or base64url', () => {
    const key = randomBytes(32);
    expect(parseKey(key.toString('base64')).equals(key)).toBe(true);
    expect(parseKey(key.toString('base64url')).equals(key)).toBe(true);
    expect(parseKey(`  ${key.toString('base64')}\n`).equals(key)).toBe(true);
  });

  it('refuses other lengths and non-base64 with a clear error that does not echo the key', () => {
    const short = randomBytes(16).toString('base64');
    expect(() => parseKey(short)).toThrow(/32 bytes, got 16/);
    try {
      parseKey(short);
    } catch (error) {
      expect((error as Error).message).not.toContain(short);
    }
    expect(errorCode(() => parseKey(randomBytes(33).toString('base64')))).toBe('invalid_key');
    expect(errorCode(() => parseKey(''))).toBe('invalid_key');
    expect(errorCode(() => parseKey('not base64 at all!'))).toBe('invalid_key');
  });
});

describe('properties', () => {
  const box = createSecretBox(KEY_A, 'k1');
  const plaintextArb = fc.oneof(
    fc.string({ maxLength: 64 }),
    fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
  );
  const aadArb = fc.string({ minLength: 1, maxLength: 40 });

  it('seal then open gives the plaintext back', () => {
    fc.assert(
      fc.property(plaintextArb, aadArb, (plaintext, aad) => {
        const opened = box.open(box.seal(plaintext, aad), aad);
        expect(opened.equals(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext)).toBe(true);
      }),
      PROPERTY_RUNS,
    );
  });

  it('any single-character change to the sealed text fails with a SecretBoxError', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=v';
    fc.assert(
      fc.property(plaintextArb, aadArb, fc.nat(), fc.nat(), (plaintext, aad, at, with_) => {
        const sealed = box.seal(plaintext, aad);
        const i = at % sealed.length;
        const replacement = alphabet[with_ % alphabet.length] ?? 'A';
        fc.pre(replacement !== sealed[i]);
        const tampered = sealed.slice(0, i) + replacement + sealed.slice(i + 1);
        expect(() => box.open(tampered, aad)).toThrow(SecretBoxError);
      }),
      PROPERTY_RUNS,
    );
  });

  it('any single-byte change to the IV, tag or ciphertext fails authentication', () => {
    fc.assert(
      fc.property(
        plaintextArb,
        aadArb,
        fc.integer({ min: 2, max: 4 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (plaintext, aad, part, at, xor) => {
          const parts = box.seal(plaintext, aad).split('.');
          const bytes = Buffer.from(parts[part] ?? '', 'base64url');
          fc.pre(bytes.length > 0);
          const i = at % bytes.length;
          bytes[i] = (bytes[i] ?? 0) ^ xor;
          parts[part] = bytes.toString('base64url');
          expect(errorCode(() => box.open(parts.join('.'), aad))).toBe('authentication_failed');
        },
      ),
      PROPERTY_RUNS,
    );
  });
});
