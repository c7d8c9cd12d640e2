import type { DuoAdminApi } from './admin-api.js';
import type { DuoAuthApi } from './auth-api.js';

/** What the Duo adapter is built from: the two Duo integrations, and the clock and push timings tests set. */
export interface DuoProviderDeps {
  admin: DuoAdminApi;
  auth: DuoAuthApi;
  /** The adapter's clock (tests); default the system clock. */
  now?: () => Date;
  /** How long a push lives, from its start (default: the portal's push time-out). */
  pushLifetimeSeconds?: number;
  /** How much longer than that a status request may wait (default PUSH_STATUS_MARGIN_MS). */
  pushStatusMarginMs?: number;
}
