import { z } from 'zod';
import type { LoginRefusal } from './login-policy.js';

/**
 * The state that binds the password step to the second-factor step of one sign-in.
 *
 * It lives server-side, in the oidc-provider Interaction record of that sign-in (its `result`), which
 * the browser can only address through the signed interaction cookie. It holds no `login` member, so
 * resuming the authorization with it (skipping the second page) does not sign anyone in: oidc-provider
 * destroys the interaction on resume and starts a new login. Only a verified second factor replaces it
 * with `{ login: { amr: ['pwd', 'mfa'] } }`.
 */

/** How long after the password the second factor may be given before the password is asked again. */
export const SECOND_FACTOR_TTL_SECONDS = 10 * 60;

/** Key of the pending state in the interaction's `result`. */
export const PENDING_KEY = 'secondFactor';

const pendingSchema = z.object({
  accountId: z.string().min(1),
  upn: z.string().min(1),
  /** When the password was verified (epoch seconds). */
  passwordAt: z.number().int().positive(),
});

export type PendingSecondFactor = z.infer<typeof pendingSchema>;

export function pendingResult(pending: PendingSecondFactor): Record<string, unknown> {
  return { [PENDING_KEY]: pending };
}

/**
 * The pending second factor stored in an interaction's result; null when there is none, when it is
 * malformed, or when it is older than {@link SECOND_FACTOR_TTL_SECONDS}.
 */
export function pendingSecondFactor(result: unknown, nowSeconds = Math.floor(Date.now() / 1000)): PendingSecondFactor | null {
  if (typeof result !== 'object' || result === null) return null;
  const parsed = pendingSchema.safeParse((result as Record<string, unknown>)[PENDING_KEY]);
  if (!parsed.success) return null;
  const age = nowSeconds - parsed.data.passwordAt;
  return age >= 0 && age <= SECOND_FACTOR_TTL_SECONDS ? parsed.data : null;
}

/** Whether the result holds a password step's state at all, valid or not (e.g. expired). */
export function hasPendingSecondFactor(result: unknown): boolean {
  return typeof result === 'object' && result !== null && PENDING_KEY in result;
}

/** What a user typed in the Passcode field, as digits: a 6-digit passcode, or the 9 digits of a bypass code. */
export type PasscodeInput = { kind: 'passcode' | 'bypass'; code: string } | { kind: 'malformed' };

export const MAX_PASSCODE_INPUT = 32;

/** Spaces and dashes are ignored (`123 456`, `123-456-789`); anything else, or another length, is malformed. */
export function parsePasscodeInput(input: string): PasscodeInput {
  if (input.length > MAX_PASSCODE_INPUT) return { kind: 'malformed' };
  const digits = input.replace(/[\s-]/g, '');
  if (/^[0-9]{6}$/.test(digits)) return { kind: 'passcode', code: digits };
  if (/^[0-9]{9}$/.test(digits)) return { kind: 'bypass', code: digits };
  return { kind: 'malformed' };
}

/** Longest reason carried in an error_description (the rest is cut). */
const MAX_REASON = 200;

/**
 * The `error_description` of a refused sign-in (with `error=access_denied`): `<code>` or
 * `<code>: <reason>`, e.g. `mfa.user_disabled: Disabled by the security team`. The code is a stable
 * `ErrorCode`; the portal's shell reads it to pick its page. RFC 6749 allows only printable ASCII
 * without `"` and `\` in error_description, so the reason is folded to that (accents dropped).
 */
export function refusalDescription(refusal: LoginRefusal): string {
  const reason = refusal.reason
    ?.normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/["\\]/g, "'")
    .replace(/[^\x20-\x7e]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_REASON)
    .trim();
  return reason ? `${refusal.code}: ${reason}` : refusal.code;
}
