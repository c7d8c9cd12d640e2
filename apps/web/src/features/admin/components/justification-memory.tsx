import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Justification } from './JustificationFields';

interface Memory {
  last: Justification | null;
  remember: (j: Justification) => void;
}

const JustificationMemoryContext = createContext<Memory>({ last: null, remember: () => undefined });

/**
 * The reason and ticket last used on this user's page: one call usually means several actions on the
 * same ticket, so each form starts with them (in memory only, for this page).
 */
export function JustificationMemory({ children }: { children: ReactNode }) {
  const [last, remember] = useState<Justification | null>(null);
  const value = useMemo(() => ({ last, remember }), [last]);
  return <JustificationMemoryContext.Provider value={value}>{children}</JustificationMemoryContext.Provider>;
}

export const useJustificationMemory = () => useContext(JustificationMemoryContext);
