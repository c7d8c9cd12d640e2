import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from 'antd';
import { DEFAULT_MESSAGE_TIMER_SECONDS } from '@mfa-portal/shared';

interface Flash {
  id: number;
  text: string;
}

interface FlashContextValue {
  flash: Flash | null;
  showSuccess: (text: string) => void;
  dismiss: () => void;
}

const FlashContext = createContext<FlashContextValue>({ flash: null, showSuccess: () => undefined, dismiss: () => undefined });

/**
 * Success banners: one at a time, kept across navigation (a change made on one page is confirmed on the
 * page it returns to), gone after 5 s (the default message time) or when closed.
 */
export function FlashProvider({
  children,
  durationSeconds = DEFAULT_MESSAGE_TIMER_SECONDS,
}: {
  children: ReactNode;
  durationSeconds?: number;
}) {
  const [flash, setFlash] = useState<Flash | null>(null);
  const showSuccess = useCallback((text: string) => setFlash((current) => ({ id: (current?.id ?? 0) + 1, text })), []);
  const dismiss = useCallback(() => setFlash(null), []);
  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash((current) => (current?.id === flash.id ? null : current)), durationSeconds * 1000);
    return () => clearTimeout(timer);
  }, [flash, durationSeconds]);
  const value = useMemo(() => ({ flash, showSuccess, dismiss }), [flash, showSuccess, dismiss]);
  return <FlashContext.Provider value={value}>{children}</FlashContext.Provider>;
}

export function useFlash() {
  return useContext(FlashContext);
}

/** The current success banner (a polite live region, so screen readers read it without moving focus). */
export function FlashBanner() {
  const { t } = useTranslation('app');
  const { flash, dismiss } = useFlash();
  return (
    <div className="flash-region" role="status" aria-live="polite">
      {flash ? (
        <Alert
          key={flash.id}
          type="success"
          showIcon
          title={flash.text}
          closable={{ 'aria-label': t('flash.close'), onClose: dismiss }}
          role="presentation"
        />
      ) : null}
    </div>
  );
}
