import { userTextProblem } from '@mfa-portal/shared';
import { badRequest } from './scim-errors.js';

/**
 * Checks of untrusted SCIM input before anything is read or written: every string (keys included)
 * must be well-formed Unicode without NUL or other control characters, and within size bounds.
 */

export const MAX_STRING_LENGTH = 1024;
export const MAX_DEPTH = 8;
export const MAX_ARRAY_LENGTH = 2000;

// The portal's one rule for free text (NUL, unpaired surrogates, control characters but tab and new lines).
function checkString(value: string, where: string): void {
  const problem = userTextProblem(value, { multiline: true });
  if (problem) throw badRequest('invalidValue', `${where} ${problem}.`);
  if (value.length > MAX_STRING_LENGTH) throw badRequest('invalidValue', `${where} is longer than ${MAX_STRING_LENGTH} characters.`);
}

/** Throws a SCIM 400 for the first bad string anywhere in `value`. */
export function assertCleanInput(value: unknown, where = 'The request', depth = 0): void {
  if (depth > MAX_DEPTH) throw badRequest('invalidSyntax', 'The request is nested too deeply.');
  if (typeof value === 'string') return checkString(value, where);
  if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY_LENGTH) throw badRequest('tooMany', `${where} has more than ${MAX_ARRAY_LENGTH} values.`);
    value.forEach((v) => assertCleanInput(v, where, depth + 1));
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      checkString(k, 'An attribute name');
      assertCleanInput(v, `Attribute "${k}"`, depth + 1);
    }
  }
}

/** `true`/`false` as booleans or as the strings Entra sends ("True", "False"), any letter case. */
export function toBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === 'true') return true;
    if (v === 'false') return false;
  }
  throw badRequest('invalidValue', `Attribute "${attribute}" must be true or false.`);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The member of `obj` named `name` regardless of letter case (SCIM attribute names are case-insensitive). */
export function getCi(obj: Record<string, unknown>, name: string): unknown {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(obj)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

export function keyCi(obj: Record<string, unknown>, name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.keys(obj).find((k) => k.toLowerCase() === lower);
}
