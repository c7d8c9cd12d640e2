import type { Env } from './config-env.js';
import { parseKey } from './lib/secret-box.js';

/** The MFA provider's part of the configuration (AppConfig's `mfa` and `duo`), read from config-env.mfa.ts's variables. */

/** One Duo application: its keys, the host it signs, and where requests go. */
export interface DuoApplicationConfig {
  integrationKey: string;
  secretKey: string;
  apiHost: string;
  baseUrl: string;
}

/** The Duo adapter's settings (MFA_PROVIDER=duo). */
export interface DuoConfig {
  admin: DuoApplicationConfig;
  auth: DuoApplicationConfig;
  caFile: string | null;
  signatureVersion: 2 | 5;
  timeoutMs: number;
  retry: { maxAttempts: number; maxTotalWaitMs: number };
  /** The directory sync from Duo's user list: every `everyMinutes` (0 = off), at most `callsPerSecond`. */
  directorySync: { everyMinutes: number; callsPerSecond: number };
}

/** Settings of the MFA domain (builtin store, step-up, verification limits). */
export interface MfaConfig {
  /** MFA_SECRETS_KEY (32 bytes); null: generated into DATA_DIR/mfa-secrets.key on first start. */
  secretsKey: Buffer | null;
  /** MFA_BYPASS_PEPPER; null: derived from the secrets key with HKDF. */
  bypassPepper: Buffer | null;
  /** Issuer shown by authenticator apps. */
  totpIssuer: string;
  /** A step-up verification allows sensitive changes for this long. */
  stepUpMaxAgeSeconds: number;
  /** A helpdesk member's verification of a user allows issuing codes and removing devices for this long. */
  helpdeskVerificationWindowSeconds: number;
  lockout: { maxFailures: number; lockMinutes: number };
  /** Verification attempts allowed per window, per user and per client address. */
  verifyRateLimit: { perUser: number; perAddress: number; windowSeconds: number };
  /** How long an activation link of the portal's authenticator app can be used (AUTHENTICATOR_ACTIVATION_MINUTES). */
  authenticatorActivationMinutes: number;
  /** How long a push waits for its answer before it reads as `timeout` (PUSH_TIMEOUT_SECONDS). */
  pushTimeoutSeconds: number;
  /** Pushes started per user in ten minutes (PUSH_LIMIT_PER_USER). */
  pushLimitPerUser: number;
  /** Web Push to the portal's authenticator app. */
  webPush: WebPushConfig;
}

/** Web Push (VAPID) to the portal's authenticator app. */
export interface WebPushConfig {
  /** WEB_PUSH: false sends none (the app still fetches its requests when open and over server-sent events). */
  enabled: boolean;
  /** VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY (base64url); null: generated once and kept sealed in the database. */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  /**
   * Who push services contact about the portal's pushes (the VAPID `sub` claim): VAPID_SUBJECT; else
   * `mailto:` SECURITY_CONTACT_EMAIL; else the origin of PUBLIC_URL; `mailto:security@<host>` when that
   * origin is a loopback one (push services refuse a localhost URL).
   */
  subject: string;
}

const LOOPBACK = /^(localhost|127\.[0-9.]+|\[::1\])$/i;

/** VAPID_SUBJECT, or the contact the rest of the configuration names (see {@link WebPushConfig.subject}). */
export function vapidSubjectOf(env: Pick<Env, 'VAPID_SUBJECT' | 'SECURITY_CONTACT_EMAIL' | 'PUBLIC_URL' | 'PORT'>): string {
  if (env.VAPID_SUBJECT) return env.VAPID_SUBJECT;
  if (env.SECURITY_CONTACT_EMAIL) return `mailto:${env.SECURITY_CONTACT_EMAIL}`;
  const url = new URL(env.PUBLIC_URL ?? `https://localhost:${env.PORT}/`);
  return LOOPBACK.test(url.hostname) ? `mailto:security@${url.hostname.replace(/^\[|\]$/g, '')}` : url.origin;
}

/** The MFA domain's settings from the environment. */
export function mfaConfigOf(env: Env): MfaConfig {
  return {
    secretsKey: env.MFA_SECRETS_KEY === undefined ? null : parseKey(env.MFA_SECRETS_KEY),
    bypassPepper: env.MFA_BYPASS_PEPPER === undefined ? null : Buffer.from(env.MFA_BYPASS_PEPPER, 'base64'),
    totpIssuer: env.MFA_TOTP_ISSUER,
    stepUpMaxAgeSeconds: env.STEP_UP_MAX_AGE_SECONDS,
    helpdeskVerificationWindowSeconds: env.HELPDESK_VERIFICATION_WINDOW_SECONDS,
    lockout: { maxFailures: env.MFA_LOCKOUT_MAX_FAILURES, lockMinutes: env.MFA_LOCKOUT_MINUTES },
    verifyRateLimit: {
      perUser: env.MFA_VERIFY_LIMIT_PER_USER,
      perAddress: env.MFA_VERIFY_LIMIT_PER_ADDRESS,
      windowSeconds: env.MFA_VERIFY_LIMIT_WINDOW_SECONDS,
    },
    authenticatorActivationMinutes: env.AUTHENTICATOR_ACTIVATION_MINUTES,
    pushTimeoutSeconds: env.PUSH_TIMEOUT_SECONDS,
    pushLimitPerUser: env.PUSH_LIMIT_PER_USER,
    webPush: {
      enabled: env.WEB_PUSH,
      vapidKeys:
        env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY } : null,
      subject: vapidSubjectOf(env),
    },
  };
}

/** The Duo adapter's settings (MFA_PROVIDER=duo): the Auth API shares the Admin API's host unless told otherwise. */
export function duoConfigOf(env: Env): DuoConfig {
  const adminHost = env.DUO_API_HOST!;
  const authHost = env.DUO_AUTH_API_HOST ?? adminHost;
  const adminBase = env.DUO_API_BASE_URL ?? `https://${adminHost}`;
  return {
    admin: { integrationKey: env.DUO_ADMIN_INTEGRATION_KEY!, secretKey: env.DUO_ADMIN_SECRET_KEY!, apiHost: adminHost, baseUrl: adminBase },
    auth: {
      integrationKey: env.DUO_AUTH_INTEGRATION_KEY!,
      secretKey: env.DUO_AUTH_SECRET_KEY!,
      apiHost: authHost,
      baseUrl: env.DUO_AUTH_API_BASE_URL ?? (authHost === adminHost ? adminBase : `https://${authHost}`),
    },
    caFile: env.DUO_CA_FILE ?? null,
    signatureVersion: env.DUO_SIGNATURE_VERSION === '5' ? 5 : 2,
    timeoutMs: env.DUO_TIMEOUT_MS,
    retry: { maxAttempts: env.DUO_RETRY_MAX_ATTEMPTS, maxTotalWaitMs: env.DUO_RETRY_MAX_WAIT_MS },
    directorySync: { everyMinutes: env.DUO_DIRECTORY_SYNC_MINUTES, callsPerSecond: env.DUO_DIRECTORY_SYNC_CALLS_PER_SECOND },
  };
}
