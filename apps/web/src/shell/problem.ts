import { AuthError } from '@azure/msal-browser';
import type { ShellProblem } from './shell-state';

/** Turns anything thrown by MSAL (or by us) into a code and a message a page can show. */
export function toProblem(error: unknown): ShellProblem {
  if (error instanceof AuthError) return { code: error.errorCode || 'auth_error', message: error.errorMessage || error.message };
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : error.name || 'error', message: error.message };
  }
  return { code: 'unknown_error', message: String(error) };
}
