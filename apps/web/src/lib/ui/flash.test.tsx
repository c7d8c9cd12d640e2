import '../test/setup';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { DEFAULT_MESSAGE_TIMER_SECONDS } from '@mfa-portal/shared';
import { createFullTestI18n } from '../test/i18n';
import { FlashBanner, FlashProvider, useFlash } from './flash';

function Trigger() {
  const { showSuccess } = useFlash();
  return (
    <button type="button" onClick={() => showSuccess('Saved.')}>
      go
    </button>
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('success banner', () => {
  it('is announced politely and stays for the default message timer (5 s)', async () => {
    const i18n = await createFullTestI18n();
    vi.useFakeTimers();
    render(
      <I18nextProvider i18n={i18n}>
        <FlashProvider>
          <FlashBanner />
          <Trigger />
        </FlashProvider>
      </I18nextProvider>,
    );
    act(() => screen.getByRole('button', { name: 'go' }).click());
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
    expect(DEFAULT_MESSAGE_TIMER_SECONDS).toBe(5);
    act(() => vi.advanceTimersByTime(DEFAULT_MESSAGE_TIMER_SECONDS * 1000 - 1));
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });
});
