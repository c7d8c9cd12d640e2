import fc from 'fast-check';

/**
 * Hostile input for the fuzz suite (not a test file): strings that break storage (NUL, unpaired
 * surrogates, control characters), huge strings, wrong types, deep nesting and prototype-pollution keys.
 */

export const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\udbff\udfff\ud800',
  '\u0007',
  '\u001b[31m',
  '\u0085',
  '\u202e',
  '\ufeff',
  'line\nbreak',
  '\t',
  '💥',
  '__proto__',
  'constructor',
  'prototype',
  '../../etc/passwd',
  '%00',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '',
  ' ',
  'bob@example.com',
  'admin@example.com',
  '00000000-0000-4000-8000-000000000000',
] as const;

export const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'] as const;

/** A string likely to break something. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  // Any UTF-16 code units, lone surrogates included.
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 1, arbitrary: fc.constantFrom(300, 1025, 5000, 70_000).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...HOSTILE_STRINGS)).map(([a, b]) => `${a}${b}${a}`) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-1, 0, 1, 1.5, -0.5, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, -1e308, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, hostile leaves, prototype-pollution keys, bounded depth. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...POLLUTION_KEYS), hostileString), tie('value')), { maxLength: 4 })
      .map((e) => new RawObject(e)),
  ),
})).value;

/** An object written as JSON text key by key, so `__proto__` stays an own key of the JSON. */
export class RawObject {
  constructor(readonly entries: Array<[string, unknown]>) {}
}

/** JSON text of a value, with {@link RawObject}s written verbatim (JSON.stringify escapes lone surrogates). */
export function toJsonText(value: unknown): string {
  if (value instanceof RawObject) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  return JSON.stringify(value) ?? 'null';
}

/** Bodies that are not JSON at all, or JSON nested far too deep. */
export const rawBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '{', '{"a":', 'null', '"str"', '[]', '1e999', '{"a":1}{"b":2}', '\u0000', '{"__proto__":{"polluted":true}}'),
  fc.integer({ min: 50, max: 4000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 50, max: 2000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 64 }),
);

/** Percent-encodes a string as UTF-8, writing an unpaired surrogate as the (invalid) bytes it would take. */
export function encodeComponent(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out +=
        `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`.toUpperCase();
    } else {
      out += encodeURIComponent(s[i]!);
    }
  }
  return out;
}

/** A path segment: a plausible value, or a hostile one; sometimes a raw, malformed escape. */
export function pathSegment(plausible: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: plausible.map(encodeComponent) },
    { weight: 3, arbitrary: hostileString.filter((s) => s.length < 400).map(encodeComponent) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%E0', '%ED%A0%80', '%C0%80', '%FF', '..', '%2e%2e', 'a%2Fb') },
  );
}
