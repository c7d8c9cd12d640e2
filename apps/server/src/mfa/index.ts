import type { Kysely } from 'kysely';
import pino from 'pino';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import type { SecretBox } from '../lib/secret-box.js';
import { createBuiltinProvider, type PushDeliveryResult } from './builtin/builtin-provider.js';
import { createInventory } from './builtin/inventory.js';
import { createDuoProviderFromConfig } from './duo/duo-provider.js';
import type { TokenInventory } from './inventory.js';
import { loadMfaKeys } from './mfa-keys.js';
import type { MfaProvider } from './port.js';

export type { MfaProvider } from './port.js';
export type { PushDeliveryResult } from './builtin/builtin-provider.js';
export { MfaError } from './port.js';

/**
 * Everything that depends on which MFA provider MFA_PROVIDER names, decided here once: the rest of the
 * portal reads these answers and never asks for the provider's name.
 */
export interface MfaBundle {
  /** The port. */
  provider: MfaProvider;
  /** The hardware-token inventory the portal keeps itself (the builtin store's); null where the provider keeps its own. */
  inventory: TokenInventory | null;
  /**
   * Whether a user's MFA data may be kept in memory: only when it lives in the portal's own database,
   * where every change to it reaches the change feed (a change made at Duo would go unheard).
   */
  cachesUserData: boolean;
  /**
   * Which demo data (demo/) applies to this provider. `builtinStore`: the builtin store's demo tokens and
   * demo authenticator secrets, sealed with this key; null where the provider keeps its own devices.
   */
  demoSeeds: { builtinStore: SecretBox | null };
}

export interface MfaBundleOptions {
  /** Each retry of a throttled or failed call to the provider (metered where the retries happen). */
  onProviderRetry?: (retry: { kind: string; waitMs: number }) => void;
  /** Each Web Push to the portal's authenticator app, delivered or not (metrics); a failure is also logged here. */
  onPushDelivery?: (result: PushDeliveryResult) => void;
}

/** Chooses the adapter named by MFA_PROVIDER, with what goes with it. */
export function createMfa(config: AppConfig, db: Kysely<Database>, opts: MfaBundleOptions = {}): MfaBundle {
  switch (config.mfaProvider) {
    case 'builtin': {
      const keys = loadMfaKeys(config);
      const webPushLog = pino({ level: config.logLevel, name: 'web-push' });
      return {
        provider: createBuiltinProvider(db, {
          keys,
          lockout: config.mfa.lockout,
          activationMinutes: config.mfa.authenticatorActivationMinutes,
          pushTimeoutSeconds: config.mfa.pushTimeoutSeconds,
          // A local push-service stand-in (tests, demos) may speak plain http; production never does.
          webPush: { ...config.mfa.webPush, allowHttpEndpoints: config.env !== 'production' },
          onPushDelivery: (result) => {
            // The push still stands (the app fetches what waits for it): logged, counted, not failed.
            if (!result.ok) webPushLog.warn({ reason: result.reason, statusCode: result.statusCode }, 'Web Push delivery failed');
            opts.onPushDelivery?.(result);
          },
        }),
        inventory: createInventory(db, keys.box),
        cachesUserData: true,
        demoSeeds: mfaDemoSeeds(config),
      };
    }
    case 'duo':
      if (!config.duo) throw new Error('MFA_PROVIDER=duo needs the DUO_* settings');
      return {
        // Duo's failures reach the user as 503/502 answers; the log says which call failed and why.
        provider: createDuoProviderFromConfig(config.duo, {
          logger: pino({ level: config.logLevel, name: 'duo' }),
          onRetry: opts.onProviderRetry,
        }),
        inventory: null,
        cachesUserData: false,
        demoSeeds: mfaDemoSeeds(config),
      };
  }
}

/** Which demo data applies to the configured provider, without building the provider (the start-up seed asks before the app is built). */
export function mfaDemoSeeds(config: AppConfig): MfaBundle['demoSeeds'] {
  return { builtinStore: config.mfaProvider === 'builtin' ? loadMfaKeys(config).box : null };
}

/** The configured provider's port alone (tests and tools that need nothing else of the bundle). */
export function createMfaProvider(config: AppConfig, db: Kysely<Database>, opts: MfaBundleOptions = {}): MfaProvider {
  return createMfa(config, db, opts).provider;
}
