/**
 * LIKE patterns from what a person typed: `%`, `_` and the escape character `\` (PostgreSQL's default
 * LIKE escape) match themselves, never as wildcards.
 */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/** "Contains", case-insensitively: compare with a lower-cased column or expression. */
export const containsPattern = (query: string) => `%${escapeLike(query.toLowerCase())}%`;
/** "Starts with", case-insensitively: compare with a lower-cased column or expression. */
export const prefixPattern = (query: string) => `${escapeLike(query.toLowerCase())}%`;
