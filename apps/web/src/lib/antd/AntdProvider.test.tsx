import { act, render, screen } from '@testing-library/react';
import { ConfigProvider, theme } from 'antd';
import { useContext } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { REDUCED_MOTION_QUERY } from '../ui/use-media-query';
import { AntdProvider } from './AntdProvider';

/** What antd's components read: the motion token (dialogs, drawers, toasts) and the click ripple. */
function MotionProbe() {
  const { token } = theme.useToken();
  const { wave } = useContext(ConfigProvider.ConfigContext);
  return <p>{`motion ${token.motion ? 'on' : 'off'}, ripple ${wave?.disabled ? 'off' : 'on'}`}</p>;
}

/** A system setting for reduced motion that can be changed while the page is open. */
function systemMotionSetting(reduce: boolean) {
  const listeners = new Set<() => void>();
  let current = reduce;
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        get matches() {
          return query === REDUCED_MOTION_QUERY && current;
        },
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: (_: string, listener: () => void) => listeners.add(listener),
        removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
        dispatchEvent: () => false,
      }) as unknown as MediaQueryList,
  );
  return {
    set(reduceNow: boolean) {
      current = reduceNow;
      for (const listener of listeners) listener();
    },
  };
}

describe('the main application honours the system setting for reduced motion', () => {
  it('keeps antd motion and the click ripple for a person who did not ask for less motion', () => {
    systemMotionSetting(false);
    render(
      <AntdProvider>
        <MotionProbe />
      </AntdProvider>,
    );
    expect(screen.getByText('motion on, ripple on')).toBeInTheDocument();
  });

  it('turns both off when the system asks for reduced motion, and follows a change of the setting', () => {
    const setting = systemMotionSetting(true);
    render(
      <AntdProvider>
        <MotionProbe />
      </AntdProvider>,
    );
    expect(screen.getByText('motion off, ripple off')).toBeInTheDocument();
    act(() => setting.set(false));
    expect(screen.getByText('motion on, ripple on')).toBeInTheDocument();
  });
});
