/**
 * What an audit event may hold so that appending it cannot fail for anything a caller sent:
 * PostgreSQL refuses a NUL in text and jsonb, and a lone UTF-16 surrogate in jsonb. Such
 * characters are replaced by U+FFFD before the event is hashed and stored; validation at the routes
 * refuses them first, this is the last line (a change at Duo cannot be rolled back when its audit
 * append fails).
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point: PostgreSQL cannot store it.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function storableText(text: string): string {
  return text.replace(UNSTORABLE, '\uFFFD');
}

export function storableNullableText(text: string | null | undefined): string | null {
  return text === null || text === undefined ? null : storableText(text);
}

/** A JSON copy of `value` with every string (keys too) made storable; throws on what JSON cannot hold. */
export function storableDetails(value: Record<string, unknown>): Record<string, unknown> {
  const json = JSON.stringify(value, (_key, member: unknown) => {
    if (typeof member === 'bigint') return member.toString();
    if (typeof member === 'string') return storableText(member);
    if (member !== null && typeof member === 'object' && !Array.isArray(member) && !(member instanceof Date)) {
      return Object.fromEntries(Object.entries(member as Record<string, unknown>).map(([k, v]) => [storableText(k), v]));
    }
    return member;
  });
  return JSON.parse(json) as Record<string, unknown>;
}
