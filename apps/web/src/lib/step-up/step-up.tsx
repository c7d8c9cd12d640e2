import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { useApiClient } from '../api/api-client';
import { isApiError } from '../api/api-error';
import { getStepUpStatus } from './api/get-step-up-status';
import { useFocusReturn } from '../ui/dialog-focus';
import { StepUpDialog } from './StepUpDialog';

/** The user closed the step-up dialog: the change was not made (and nothing needs to be shown). */
export class StepUpCancelledError extends Error {
  override readonly name = 'StepUpCancelledError';
  constructor() {
    super('The identity check was cancelled.');
  }
}

function isStepUpCancelled(error: unknown): error is StepUpCancelledError {
  return error instanceof StepUpCancelledError;
}

/**
 * How a change run through useWithStepUp ended, for its screen (pass its mutation or query): `error` is
 * the error to show, null when there is none or when the user closed "Confirm it's you"; `cancelled`
 * says they closed it, so the change was not made and the screen says so in a short note, not as an error.
 */
export function stepUpOutcome<E>(result: { isError: boolean; error: E | null }): { error: E | null; cancelled: boolean } {
  const cancelled = isStepUpCancelled(result.error);
  return { error: cancelled ? null : result.error, cancelled: result.isError && cancelled };
}

type RequestStepUp = () => Promise<boolean>;
const StepUpContext = createContext<RequestStepUp>(() => Promise.resolve(false));

/**
 * Owns the one "Confirm it's you" dialog. `requestStepUp()` opens it and resolves true once the user
 * verified with a passcode or bypass code, false if they cancelled; concurrent requests share it.
 */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pending = useRef<{ promise: Promise<boolean>; resolve: (ok: boolean) => void } | null>(null);

  const requestStepUp = useCallback(() => {
    if (pending.current) return pending.current.promise;
    let resolve: (ok: boolean) => void = () => undefined;
    const promise = new Promise<boolean>((r) => (resolve = r));
    pending.current = { promise, resolve };
    setOpen(true);
    return promise;
  }, []);

  const finish = useCallback((ok: boolean) => {
    pending.current?.resolve(ok);
    pending.current = null;
    setOpen(false);
  }, []);

  const { afterClose } = useFocusReturn(open);
  return (
    <StepUpContext.Provider value={requestStepUp}>
      {children}
      <StepUpDialog open={open} onVerified={() => finish(true)} onCancel={() => finish(false)} afterClose={afterClose} />
    </StepUpContext.Provider>
  );
}

/**
 * Runs a sensitive change; when the API answers 403 `auth.step_up_required`, asks the user to confirm
 * it's them and runs the same change once more (with the same input: nothing the user typed is lost).
 * Throws StepUpCancelledError when the user closes the dialog (screens read the outcome with stepUpOutcome).
 */
export function useWithStepUp(): <T>(action: () => Promise<T>) => Promise<T> {
  const requestStepUp = useContext(StepUpContext);
  return useCallback(
    async <T,>(action: () => Promise<T>): Promise<T> => {
      try {
        return await action();
      } catch (error) {
        if (!isApiError(error, 'auth.step_up_required')) throw error;
        if (!(await requestStepUp())) throw new StepUpCancelledError();
        return action();
      }
    },
    [requestStepUp],
  );
}

/** Opens the "Confirm it is you" dialog; resolves true once the user verified, false if they cancelled. */
export function useRequestStepUp(): RequestStepUp {
  return useContext(StepUpContext);
}

/**
 * For a screen that asks "Confirm it is you" before the server does (the lost-device wizard's first
 * step): resolves true at once when this session's step-up is still fresh (GET /api/me/step-up), so a
 * person who confirmed a minute ago is not asked again inside the window the dialog promised; otherwise
 * opens the dialog. A status that cannot be read counts as none (the dialog asks).
 */
export function useEnsureStepUp(): RequestStepUp {
  const requestStepUp = useContext(StepUpContext);
  const api = useApiClient();
  return useCallback(async () => {
    try {
      if ((await getStepUpStatus(api)).active) return true;
    } catch {
      // Unknown: ask.
    }
    return requestStepUp();
  }, [api, requestStepUp]);
}
