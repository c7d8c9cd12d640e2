import { afterEach, describe, expect, it, vi } from 'vitest';
import { Suspense, type ReactElement } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { ChunkErrorBoundary } from './components/ChunkErrorBoundary';
import { LoadingFallback } from './components/Spinner';
import { ChunkLoadTimeoutError, isChunkLoadError, lazyWithTimeout, withTimeout } from './lazy-with-timeout';
import { createTestI18n } from '../test/i18n';

afterEach(() => {
  vi.useRealTimers();
});

describe('withTimeout', () => {
  it('rejects with ChunkLoadTimeoutError once the time-out passes', async () => {
    vi.useFakeTimers();
    const pending = withTimeout(new Promise(() => undefined), 5000);
    const outcome = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(4999);
    let settled = false;
    void pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ChunkLoadTimeoutError);
    expect(isChunkLoadError(error)).toBe(true);
  });

  it('passes the module through and clears its timer when the chunk arrives in time', async () => {
    vi.useFakeTimers();
    const module = { default: 'x' };
    await expect(withTimeout(Promise.resolve(module), 1000)).resolves.toBe(module);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('recognises failed dynamic imports as chunk errors, but not ordinary errors', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/static/js/a.js'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /static/css/a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });
});

describe('lazyWithTimeout by default (spec §7: 120 seconds)', () => {
  it('keeps waiting for a chunk that does not answer for 119.999 s, and rejects at 120 s', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const i18n = await createTestI18n();
    let asked = 0;
    const Lazy = lazyWithTimeout(() => {
      asked += 1;
      return new Promise<{ default: () => ReactElement }>(() => undefined);
    });
    render(
      <I18nextProvider i18n={i18n}>
        <ChunkErrorBoundary onRetry={() => undefined}>
          <Suspense fallback={<LoadingFallback />}>
            <Lazy />
          </Suspense>
        </ChunkErrorBoundary>
      </I18nextProvider>,
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(119_999);
    });
    expect(asked).toBe(1);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.getByRole('heading', { name: 'This part of the portal did not load' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});

describe('lazy chunk that fails or times out', () => {
  async function renderLazy(importer: () => Promise<{ default: () => ReactElement }>, timeoutMs: number, onRetry = vi.fn()) {
    const i18n = await createTestI18n();
    const Lazy = lazyWithTimeout(importer, timeoutMs);
    render(
      <I18nextProvider i18n={i18n}>
        <ChunkErrorBoundary onRetry={onRetry}>
          <Suspense fallback={<LoadingFallback />}>
            <Lazy />
          </Suspense>
        </ChunkErrorBoundary>
      </I18nextProvider>,
    );
    return onRetry;
  }

  it('shows "Loading..." while the chunk loads, then the component', async () => {
    let deliver: (m: { default: () => ReactElement }) => void = () => undefined;
    await renderLazy(() => new Promise((resolve) => (deliver = resolve)), 1000);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    await act(async () => deliver({ default: () => <p>Main application</p> }));
    expect(await screen.findByText('Main application')).toBeInTheDocument();
  });

  it('shows the retry screen when the chunk times out, and Retry reloads', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onRetry = await renderLazy(() => new Promise(() => undefined), 50);
    const retry = await screen.findByRole('button', { name: 'Retry' });
    expect(screen.getByRole('heading', { name: 'This part of the portal did not load' })).toBeInTheDocument();
    await userEvent.click(retry);
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('shows the retry screen when the chunk fails to download', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await renderLazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /static/js/OverviewApp.js')), 1000);
    expect(await screen.findByRole('heading', { name: 'This part of the portal did not load' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
