import { z } from 'zod';

/**
 * Free text from people and systems (names, reasons, tickets, search terms, SCIM attributes) is
 * checked at the schema, before anything is read or written: a NUL byte, an unpaired surrogate or a
 * control character is a 400 with the field named, never a database error after a half-made change.
 */

/** C0 and C1 control characters and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** The same, but tab, line feed and carriage return are allowed (multi-line fields). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** A surrogate code unit that is not half of a pair (the string is not well-formed UTF-16). */
const LONE_SURROGATE = /\p{Cs}/u;

export const USER_TEXT_MESSAGES = Object.freeze({
  nul: 'must not contain a NUL character',
  surrogate: 'must not contain invalid Unicode (an unpaired surrogate)',
  control: 'must not contain control characters',
});

/** Why a string is refused as user text (one of {@link USER_TEXT_MESSAGES}), or null when it is fine. */
export function userTextProblem(value: string, opts: { multiline?: boolean } = {}): string | null {
  if (value.includes('\u0000')) return USER_TEXT_MESSAGES.nul;
  if (LONE_SURROGATE.test(value)) return USER_TEXT_MESSAGES.surrogate;
  if ((opts.multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(value)) return USER_TEXT_MESSAGES.control;
  return null;
}

/** Whether a string can be stored and audited as it is (no NUL, no unpaired surrogate, no control character). */
export const isUserText = (value: string, opts: { multiline?: boolean } = {}) => userTextProblem(value, opts) === null;

export interface UserTextOptions {
  /** Maximum length after trimming. */
  max: number;
  /** Minimum length after trimming (default 0). */
  min?: number;
  /** Allow tab, line feed and carriage return. */
  multiline?: boolean;
  /** Trim surrounding white space first (default true). */
  trim?: boolean;
  /** Message when the value is missing or not a string. */
  required?: string;
}

/**
 * A zod string for free text: trimmed, no NUL, no unpaired surrogate, no control character (but tab
 * and new lines when `multiline`), at most `max` characters. Chain `.regex()`, `.toLowerCase()`, ...
 */
export function userText(opts: UserTextOptions) {
  const multiline = opts.multiline ?? false;
  let s = z.string({ message: opts.required ?? 'must be text' });
  if (opts.trim !== false) s = s.trim();
  s = s
    .refine((v) => !v.includes('\u0000'), USER_TEXT_MESSAGES.nul)
    .refine((v) => !LONE_SURROGATE.test(v), USER_TEXT_MESSAGES.surrogate)
    .refine((v) => !(multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(v), USER_TEXT_MESSAGES.control)
    .max(opts.max, `must be at most ${opts.max} characters`);
  if (opts.min) s = s.min(opts.min, opts.min === 1 ? 'must not be empty' : `must be at least ${opts.min} characters`);
  return s;
}
