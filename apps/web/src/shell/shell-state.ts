import type { UserInfoResponse } from '@mfa-portal/shared';

/** What went wrong, in a form a page can show: a stable code and the library's or server's text. */
export interface ShellProblem {
  code: string;
  message: string;
}

/**
 * The shell's loading state: loading → tokenready → ready, or one of the two end states
 * unauthorized (token failure, profile 401) and failed (any other profile error).
 */
export type ShellState =
  | { status: 'loading' }
  | { status: 'tokenready'; accessToken: string }
  | { status: 'ready'; accessToken: string; profile: UserInfoResponse }
  | { status: 'unauthorized'; problem?: ShellProblem }
  | { status: 'failed'; error: string };

export type ShellAction =
  | { type: 'tokenAcquired'; accessToken: string }
  | { type: 'tokenFailed'; problem: ShellProblem }
  | { type: 'profileLoaded'; profile: UserInfoResponse }
  | { type: 'profileUnauthorized' }
  | { type: 'profileFailed'; error: string }
  /** The profile request was aborted (unmount, StrictMode's second effect run): ignored. */
  | { type: 'profileAborted' };

export const initialShellState: ShellState = { status: 'loading' };

/**
 * Pure transition function. An action that does not apply to the current state returns that same
 * state object, so React skips the re-render and late answers cannot undo an end state.
 */
export function shellReducer(state: ShellState, action: ShellAction): ShellState {
  switch (action.type) {
    case 'tokenAcquired':
      return state.status === 'loading' ? { status: 'tokenready', accessToken: action.accessToken } : state;
    case 'tokenFailed':
      return state.status === 'loading' ? { status: 'unauthorized', problem: action.problem } : state;
    case 'profileLoaded':
      return state.status === 'tokenready' ? { status: 'ready', accessToken: state.accessToken, profile: action.profile } : state;
    case 'profileUnauthorized':
      return state.status === 'tokenready' ? { status: 'unauthorized' } : state;
    case 'profileFailed':
      return state.status === 'tokenready' ? { status: 'failed', error: action.error } : state;
    case 'profileAborted':
      return state;
  }
}
