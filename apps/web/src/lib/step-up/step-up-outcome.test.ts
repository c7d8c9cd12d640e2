import { describe, expect, it } from 'vitest';
import { StepUpCancelledError, stepUpOutcome } from './step-up';

describe('stepUpOutcome', () => {
  it('shows no error and no note while nothing failed', () => {
    expect(stepUpOutcome({ isError: false, error: null })).toEqual({ error: null, cancelled: false });
  });

  it('turns a closed "Confirm it\'s you" into a note, not an error', () => {
    expect(stepUpOutcome({ isError: true, error: new StepUpCancelledError() })).toEqual({ error: null, cancelled: true });
  });

  it('passes any other failure on as the error to show', () => {
    const failure = new Error('The service did not answer.');
    expect(stepUpOutcome({ isError: true, error: failure })).toEqual({ error: failure, cancelled: false });
  });
});
