import { z } from 'zod';
import { createECDH } from 'node:crypto';
import {
  ADMIN_IDENTITY_CHECK_FRESH_SECONDS,
  AUTHENTICATOR_ACTIVATION_MINUTES,
  DEFAULT_STEP_UP_MAX_AGE_SECONDS,
  PUSH_TIMEOUT_SECONDS,
} from '@mfa-portal/shared';
import { bool, duoBaseUrl, duoHost, duoIntegrationKey, duoSecretKey, int } from './config-env.fields.js';

/**
 * The MFA provider's variables, part of the environment schema (config-env.ts): which provider, the
 * builtin store's keys, step-up and helpdesk windows, lockout and verification budgets, and Duo's
 * applications. The schema spreads them in place, so their order in it (and in its errors) is unchanged.
 */
export const mfaEnvFields = {
  MFA_PROVIDER: z.enum(['builtin', 'duo'], { message: 'must be builtin or duo' }).default('builtin'),
  // Builtin MFA store: AES-256-GCM key for TOTP secrets and token seeds (base64, 32 bytes), and the
  // key of the bypass-code hashes (base64, at least 32 bytes; derived from MFA_SECRETS_KEY when unset).
  MFA_SECRETS_KEY: z.string().optional(),
  MFA_BYPASS_PEPPER: z.string().optional(),
  MFA_TOTP_ISSUER: z.string().trim().min(1).max(64, 'must be at most 64 characters').default('MFA Portal'),
  STEP_UP_MAX_AGE_SECONDS: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(30, 'must be between 30 and 3600')
    .max(3600, 'must be between 30 and 3600')
    .default(DEFAULT_STEP_UP_MAX_AGE_SECONDS),
  // How recent a helpdesk member's verification of a user must be before they issue codes or remove devices.
  HELPDESK_VERIFICATION_WINDOW_SECONDS: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(60, 'must be between 60 and 28800')
    .max(28800, 'must be between 60 and 28800')
    .default(ADMIN_IDENTITY_CHECK_FRESH_SECONDS),
  MFA_LOCKOUT_MAX_FAILURES: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 100')
    .max(100, 'must be between 1 and 100')
    .default(5),
  MFA_LOCKOUT_MINUTES: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 1440')
    .max(1440, 'must be between 1 and 1440')
    .default(15),
  MFA_VERIFY_LIMIT_PER_USER: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 1000')
    .max(1000, 'must be between 1 and 1000')
    .default(10),
  MFA_VERIFY_LIMIT_PER_ADDRESS: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 10000')
    .max(10000, 'must be between 1 and 10000')
    .default(30),
  MFA_VERIFY_LIMIT_WINDOW_SECONDS: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 3600')
    .max(3600, 'must be between 1 and 3600')
    .default(60),

  // The portal's own authenticator app (builtin provider): how long an activation link lasts, how long a
  // push waits for its answer, and Web Push (VAPID keys as `npx web-push generate-vapid-keys` prints them;
  // unset: generated once and kept sealed in the database, the same pair for every instance).
  AUTHENTICATOR_ACTIVATION_MINUTES: int(1, 60, AUTHENTICATOR_ACTIVATION_MINUTES),
  PUSH_TIMEOUT_SECONDS: int(15, 300, PUSH_TIMEOUT_SECONDS),
  // Pushes a user may be sent in ten minutes, whatever they are for: a flood of prompts is how push
  // fatigue attacks wear people down.
  PUSH_LIMIT_PER_USER: int(1, 1000, 5),
  WEB_PUSH: bool.default(true),
  VAPID_PUBLIC_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a P-256 public key in base64url (65 bytes, 87 characters), as web-push generates it')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a P-256 private key in base64url (32 bytes, 43 characters), as web-push generates it')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .trim()
    .max(512)
    .refine(isVapidSubject, 'must be a mailto: address or an https: URL where push services can reach the operator')
    .optional(),

  // Duo (MFA_PROVIDER=duo): an "Admin API" application (users, devices, bypass codes) and an
  // "Auth API" application (passcode checks, pushes) of the Duo Admin Panel; they may share a host.
  DUO_ADMIN_INTEGRATION_KEY: duoIntegrationKey.optional(),
  DUO_ADMIN_SECRET_KEY: duoSecretKey.optional(),
  DUO_API_HOST: duoHost.optional(),
  DUO_AUTH_INTEGRATION_KEY: duoIntegrationKey.optional(),
  DUO_AUTH_SECRET_KEY: duoSecretKey.optional(),
  DUO_AUTH_API_HOST: duoHost.optional(),
  // Where requests go instead of https://<host> (a test stand-in, an egress proxy); the host is still signed.
  DUO_API_BASE_URL: duoBaseUrl.optional(),
  DUO_AUTH_API_BASE_URL: duoBaseUrl.optional(),
  // PEM file of the CAs to trust for Duo (e.g. Duo's own bundle, to pin them); default: Node's list.
  DUO_CA_FILE: z.string().min(1).optional(),
  DUO_SIGNATURE_VERSION: z.enum(['2', '5'], { message: 'must be 2 (form bodies) or 5 (JSON bodies)' }).default('2'),
  DUO_TIMEOUT_MS: int(1000, 60000, 10000),
  DUO_RETRY_MAX_ATTEMPTS: int(1, 10, 4),
  DUO_RETRY_MAX_WAIT_MS: int(0, 60000, 8000),
};

function isVapidSubject(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'mailto:' && /^[^@\s]+@[^@\s]+$/.test(url.pathname)) || (url.protocol === 'https:' && url.hostname !== '');
  } catch {
    return false;
  }
}

/** The public key (uncompressed point, base64url) of a P-256 private key; null when it is not one. */
export function vapidPublicKeyOf(privateKey: string): string | null {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    return ecdh.getPublicKey().toString('base64url');
  } catch {
    return null;
  }
}

/**
 * The rules between the Web Push variables (called from the schema's refinement): the VAPID keys are
 * set together, and they must be one P-256 pair (a public key that does not match the private one
 * would make every push service refuse every push, silently).
 */
export function checkWebPushEnv(
  env: { VAPID_PUBLIC_KEY?: string | undefined; VAPID_PRIVATE_KEY?: string | undefined },
  addIssue: (path: string, message: string) => void,
): void {
  const { VAPID_PUBLIC_KEY: pub, VAPID_PRIVATE_KEY: priv } = env;
  if (pub !== undefined && priv === undefined) addIssue('VAPID_PRIVATE_KEY', 'is required with VAPID_PUBLIC_KEY (set both, or neither)');
  if (priv !== undefined && pub === undefined) addIssue('VAPID_PUBLIC_KEY', 'is required with VAPID_PRIVATE_KEY (set both, or neither)');
  // A key of the wrong form is already named by its own rule.
  if (pub === undefined || priv === undefined || !/^[A-Za-z0-9_-]{87}$/.test(pub) || !/^[A-Za-z0-9_-]{43}$/.test(priv)) return;
  const derived = vapidPublicKeyOf(priv);
  if (derived === null) addIssue('VAPID_PRIVATE_KEY', 'is not a P-256 private key');
  else if (derived !== pub) addIssue('VAPID_PUBLIC_KEY', 'is not the public key of VAPID_PRIVATE_KEY (they must be one pair)');
}
