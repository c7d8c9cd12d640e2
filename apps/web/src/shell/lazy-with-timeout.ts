import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
// The constants file alone: the authenticator app uses this too, and the shared index brings zod.
import { CHUNK_LOAD_TIMEOUT_MS } from '@mfa-portal/shared/constants';

/** A lazily loaded chunk that did not arrive in time. */
export class ChunkLoadTimeoutError extends Error {
  override readonly name = 'ChunkLoadTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`A part of the application did not load within ${timeoutMs / 1000} seconds.`);
  }
}

/** Settles like `promise`, or rejects with ChunkLoadTimeoutError after `timeoutMs`. */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadTimeoutError(timeoutMs)), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** React.lazy with a time-out: a chunk that fails or takes too long throws to the nearest error boundary. */
export function lazyWithTimeout<T extends ComponentType<any>>(
  importer: () => Promise<{ default: T }>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
): LazyExoticComponent<T> {
  return lazy(() => withTimeout(importer(), timeoutMs));
}

/** Does this error come from loading a chunk (time-out, failed dynamic import or CSS preload)? */
export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof ChunkLoadTimeoutError) return true;
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk/i.test(error.message);
}
