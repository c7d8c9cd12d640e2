import { z } from 'zod';
import { ADMIN_IDENTITY_CHECK_FRESH_SECONDS, DEFAULT_STEP_UP_MAX_AGE_SECONDS } from '@mfa-portal/shared';
import { duoBaseUrl, duoHost, duoIntegrationKey, duoSecretKey, int } from './config-env.fields.js';

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
