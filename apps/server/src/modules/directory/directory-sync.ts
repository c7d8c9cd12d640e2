import { periodicJob } from '../../lib/periodic-job.js';
import type { MfaProvider } from '../../mfa/port.js';
import type { DirectoryRepository } from './directory.repository.js';

/**
 * Keeps the portal's directory current from the MFA provider's user list (Duo's, at any organisation size): admin search
 * reads the directory (trigram index), never Duo's whole list, and asks Duo only about the user an
 * administrator opens. Sign-ins (getuserinfo) and SCIM write the same directory; this sync adds those
 * who never signed in and refreshes names, e-mails and Duo's status.
 *
 * Paced: at most `callsPerSecond` Admin API calls (one per page of 300 users), so a walk of 100,000
 * users (334 pages) stays well inside Duo's rate limits; one walk at a time, every `everyMinutes`.
 */
export interface DirectorySync {
  /** One walk of the provider's list; resolves with how many users it saw. */
  syncOnce(): Promise<number>;
  /** Runs a walk 30 s after the start, then `everyMinutes` after each; a no-op when everyMinutes is 0. */
  start(): void;
  /** Stops the timer and waits for a walk under way. */
  stop(): Promise<void>;
}

export function createDirectorySync(deps: {
  mfa: MfaProvider;
  directory: DirectoryRepository;
  everyMinutes: number;
  callsPerSecond: number;
  onError?: (err: unknown) => void;
  sleep?: (ms: number) => Promise<void>;
}): DirectorySync {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref()));
  const gapMs = 1000 / deps.callsPerSecond;

  async function walk(): Promise<number> {
    const each = deps.mfa.eachUserPage;
    if (!each) return 0;
    let seen = 0;
    let last = 0;
    await each.call(
      deps.mfa,
      async (users) => {
        seen += users.length;
        await deps.directory.upsertKnown(
          users.map((u) => ({ upn: u.username, displayName: u.realName, email: u.email, mfaStatus: u.status, mfaEnrolled: u.enrolled })),
        );
      },
      async () => {
        await sleep(Math.max(0, last + gapMs - Date.now()));
        last = Date.now();
      },
    );
    return seen;
  }

  const job = periodicJob({
    everyMs: Math.max(1, deps.everyMinutes) * 60_000,
    firstDelayMs: 30_000,
    run: walk,
    onError: (err) => deps.onError?.(err),
  });
  return {
    syncOnce: job.runOnce,
    start() {
      if (deps.everyMinutes > 0 && deps.mfa.eachUserPage) job.start();
    },
    stop: () => job.stop(),
  };
}
