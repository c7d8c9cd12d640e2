import { describe, expect, it } from 'vitest';
import { initialShellState, shellReducer, type ShellAction, type ShellState } from './shell-state';
import { profile } from '../test/fixtures';

const loading: ShellState = initialShellState;
const tokenready: ShellState = { status: 'tokenready', accessToken: 'token-1' };
const ready: ShellState = { status: 'ready', accessToken: 'token-1', profile: profile() };
const unauthorized: ShellState = { status: 'unauthorized' };
const failed: ShellState = { status: 'failed', error: 'boom' };
const problem = { code: 'interaction_required', message: 'Sign in again' };

describe('shell state machine', () => {
  it('starts in loading', () => {
    expect(initialShellState).toEqual({ status: 'loading' });
  });

  it('loading → tokenready when a token is acquired', () => {
    expect(shellReducer(loading, { type: 'tokenAcquired', accessToken: 'token-1' })).toEqual({
      status: 'tokenready',
      accessToken: 'token-1',
    });
  });

  it('loading → unauthorized when token acquisition fails, keeping the problem', () => {
    expect(shellReducer(loading, { type: 'tokenFailed', problem })).toEqual({ status: 'unauthorized', problem });
  });

  it('tokenready → ready with the profile, keeping the token', () => {
    const p = profile();
    expect(shellReducer(tokenready, { type: 'profileLoaded', profile: p })).toEqual({
      status: 'ready',
      accessToken: 'token-1',
      profile: p,
    });
  });

  it('tokenready → unauthorized when the profile call answers 401', () => {
    expect(shellReducer(tokenready, { type: 'profileUnauthorized' })).toEqual({ status: 'unauthorized' });
  });

  it('tokenready → failed with the response text on any other profile error', () => {
    expect(shellReducer(tokenready, { type: 'profileFailed', error: '{"code":"server.internal"}' })).toEqual({
      status: 'failed',
      error: '{"code":"server.internal"}',
    });
  });

  it('ignores an aborted profile request in every state (same object, so React does not re-render)', () => {
    for (const state of [loading, tokenready, ready, unauthorized, failed]) {
      expect(shellReducer(state, { type: 'profileAborted' })).toBe(state);
    }
  });

  it('ignores actions that do not apply to the current state', () => {
    const p = profile();
    const cases: Array<[ShellState, ShellAction]> = [
      // profile answers before any token
      [loading, { type: 'profileLoaded', profile: p }],
      [loading, { type: 'profileUnauthorized' }],
      [loading, { type: 'profileFailed', error: 'x' }],
      // a late token event after the profile flow began or ended
      [tokenready, { type: 'tokenAcquired', accessToken: 'token-2' }],
      [tokenready, { type: 'tokenFailed', problem }],
      [ready, { type: 'tokenFailed', problem }],
      [ready, { type: 'profileFailed', error: 'late' }],
      [ready, { type: 'profileUnauthorized' }],
      // end states are final
      [unauthorized, { type: 'tokenAcquired', accessToken: 'token-2' }],
      [unauthorized, { type: 'profileLoaded', profile: p }],
      [failed, { type: 'profileLoaded', profile: p }],
      [failed, { type: 'tokenAcquired', accessToken: 'token-2' }],
    ];
    for (const [state, action] of cases) {
      expect(shellReducer(state, action), `${state.status} + ${action.type}`).toBe(state);
    }
  });

  it('runs the whole happy path in order', () => {
    const p = profile();
    const end = [
      { type: 'tokenAcquired', accessToken: 't' },
      { type: 'profileAborted' },
      { type: 'profileLoaded', profile: p },
    ].reduce<ShellState>((s, a) => shellReducer(s, a as ShellAction), initialShellState);
    expect(end).toEqual({ status: 'ready', accessToken: 't', profile: p });
  });
});
