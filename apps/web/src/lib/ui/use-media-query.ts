import { useCallback, useSyncExternalStore } from 'react';

/** The width under which the portal lays screens out for a phone (the stylesheets' `max-width: 40rem`). */
export const PHONE_LAYOUT_QUERY = '(max-width: 40rem)';

/** A person who asked their system for less motion (vestibular disorders, or simply a slow phone). */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Whether `query` matches now, following changes (a rotated phone, a resized window). False without matchMedia. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : false),
    () => false,
  );
}
