import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Justification } from './JustificationFields';

interface Memory {
  last: Justification | null;
  remember: (j: Justification) => void;
}

const JustificationMemoryContext = createContext<Memory>({ last: null, remember: () => undefined });

/** Where one call is kept: this tab, under a key naming both the administrator and the person they help. */
export const callStorageKey = (adminUpn: string, userUpn: string) =>
  `mfa-portal.helpdesk-call.${adminUpn.toLowerCase()}.${userUpn.toLowerCase()}`;

interface Stored extends Justification {
  /** When the call's verification window ends: after that the reason and ticket are asked afresh. */
  until: string;
}

function readStored(key: string | undefined, now: number): Stored | null {
  if (!key) return null;
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(key) ?? 'null');
    if (!value || typeof value !== 'object') return null;
    const v = value as Record<string, unknown>;
    if (typeof v.reason !== 'string' || typeof v.ticket !== 'string' || typeof v.until !== 'string') return null;
    if (!(Date.parse(v.until) > now)) return null;
    return { reason: v.reason, ticket: v.ticket, until: v.until };
  } catch {
    return null;
  }
}

function writeStored(key: string | undefined, value: Stored | null): void {
  if (!key) return;
  try {
    if (value) sessionStorage.setItem(key, JSON.stringify(value));
    else sessionStorage.removeItem(key);
  } catch {
    // Storage refused (private mode, quota): the call is still remembered on this page.
  }
}

/**
 * The reason and ticket of the call in progress: typed once, with the verification, then the
 * starting values of every action's form on this person's pages (their page and the lost-device
 * wizard), editable there, until the verification window ends. One call means several actions on the
 * same ticket; the server still receives the reason and ticket with each of them.
 *
 * With `storageKey` (a person's pages) the call survives moving between those pages and a reload, in
 * this tab only; `until` is when the caller's verification of this person runs out (or null, when none
 * is in force: a call remembered then lasts `windowSeconds`). Without it (the token inventory), the
 * memory lives as long as the page.
 */
export function JustificationMemory({
  children,
  storageKey,
  until = null,
  windowSeconds = 15 * 60,
}: {
  children: ReactNode;
  storageKey?: string;
  until?: string | null;
  windowSeconds?: number;
}) {
  const [stored, setStored] = useState<Stored | null>(() => readStored(storageKey, Date.now()));

  // A newer verification extends the call to its own window.
  useEffect(() => {
    if (!until) return;
    setStored((current) => {
      if (!current || Date.parse(current.until) >= Date.parse(until)) return current;
      const next = { ...current, until };
      writeStored(storageKey, next);
      return next;
    });
  }, [until, storageKey]);

  // When the window ends, so does the call.
  useEffect(() => {
    if (!stored) return;
    const timer = setTimeout(
      () => {
        writeStored(storageKey, null);
        setStored(null);
      },
      Math.max(0, Date.parse(stored.until) - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [stored, storageKey]);

  const remember = useCallback(
    (j: Justification) => {
      const end = until && Date.parse(until) > Date.now() ? until : new Date(Date.now() + windowSeconds * 1000).toISOString();
      const next = { reason: j.reason, ticket: j.ticket, until: end };
      writeStored(storageKey, next);
      setStored(next);
    },
    [storageKey, until, windowSeconds],
  );
  const value = useMemo<Memory>(
    () => ({ last: stored ? { reason: stored.reason, ticket: stored.ticket } : null, remember }),
    [stored, remember],
  );
  return <JustificationMemoryContext.Provider value={value}>{children}</JustificationMemoryContext.Provider>;
}

export const useJustificationMemory = () => useContext(JustificationMemoryContext);
