import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_RESTRICTED_ROLES, DEFAULT_STEP_UP_MAX_AGE_SECONDS, ROLE_HELPDESK, ROLE_SOLUTION_ADMIN, type RoleNames } from '@mfa-portal/shared';
import { parseKey } from './mfa/builtin/secret-box.js';

/**
 * Configuration is read from the environment once, validated, and frozen.
 * Every bad variable is reported by name with what was expected; the process then exits.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

const int = (min: number, max: number, fallback: number) =>
  z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(min, `must be between ${min} and ${max}`).max(max, `must be between ${min} and ${max}`).default(fallback);

// Duo's keys and host as the Duo Admin Panel shows them (a secret key is never echoed back).
const duoIntegrationKey = z.string().trim().regex(/^[A-Z0-9]{20}$/, 'must be the 20-character integration key shown by the Duo Admin Panel (DI…)');
const duoSecretKey = z.string().trim().regex(/^[A-Za-z0-9]{40}$/, 'must be the 40-character secret key shown by the Duo Admin Panel');
const duoHost = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/, 'must be the API hostname, e.g. api-xxxxxxxx.duosecurity.com (without https://)');
const duoBaseUrl = z.url({ message: 'must be an absolute http(s) URL' }).regex(/^https?:\/\//, 'must be an absolute http(s) URL');

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test'], { message: 'must be development, production or test' }).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, 'must be between 1 and 65535').max(65535, 'must be between 1 and 65535').default(8443),
    PUBLIC_URL: z.url({ message: 'must be an absolute https URL such as https://mfa.example.org/' }).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: bool.default(false),

    TLS: z.enum(['self-signed', 'files', 'off'], { message: 'must be self-signed, files or off' }).default('self-signed'),
    TLS_CERT_FILE: z.string().optional(),
    TLS_KEY_FILE: z.string().optional(),

    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL').optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),

    IDP_MODE: z.enum(['embedded', 'entra'], { message: 'must be embedded or entra' }).default('embedded'),
    ALLOW_EMBEDDED_IDP_IN_PRODUCTION: bool.default(false),
    DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('portal-demo'),
    EMBEDDED_CLIENT_ID: z.string().min(1).default('mfa-portal-spa'),
    EMBEDDED_API_AUDIENCE: z.string().min(1).default('api://mfa-portal'),

    ENTRA_TENANT_ID: z.string().regex(/^[0-9a-f-]{36}$|^[a-z0-9.-]+$/i, 'must be the tenant GUID or domain').optional(),
    ENTRA_AUTHORITY_HOST: z.url().default('https://login.microsoftonline.com'),
    ENTRA_CLIENT_ID: z.string().uuid('must be the SPA application (client) id, a GUID').optional(),
    ENTRA_API_AUDIENCE: z.string().min(1).optional(),
    ENTRA_API_SCOPE: z.string().min(1).optional(),

    API_SCOPE_NAME: z.string().regex(/^[A-Za-z0-9_.-]+$/).default('access_as_user'),
    ROLE_HELPDESK: z.string().min(1).default(ROLE_HELPDESK),
    ROLE_SOLUTION_ADMIN: z.string().min(1).default(ROLE_SOLUTION_ADMIN),
    RESTRICTED_ROLES: csv.default([...DEFAULT_RESTRICTED_ROLES]),
    REDIRECT_WHITELIST: csv.optional(),

    MFA_PROVIDER: z.enum(['builtin', 'duo'], { message: 'must be builtin or duo' }).default('builtin'),
    // Builtin MFA store: AES-256-GCM key for TOTP secrets and token seeds (base64, 32 bytes), and the
    // key of the bypass-code hashes (base64, at least 32 bytes; derived from MFA_SECRETS_KEY when unset).
    MFA_SECRETS_KEY: z.string().optional(),
    MFA_BYPASS_PEPPER: z.string().optional(),
    MFA_TOTP_ISSUER: z.string().trim().min(1).max(64, 'must be at most 64 characters').default('MFA Portal'),
    STEP_UP_MAX_AGE_SECONDS: z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(30, 'must be between 30 and 3600').max(3600, 'must be between 30 and 3600').default(DEFAULT_STEP_UP_MAX_AGE_SECONDS),
    MFA_LOCKOUT_MAX_FAILURES: z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100').default(5),
    MFA_LOCKOUT_MINUTES: z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, 'must be between 1 and 1440').max(1440, 'must be between 1 and 1440').default(15),
    MFA_VERIFY_LIMIT_PER_USER: z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, 'must be between 1 and 1000').max(1000, 'must be between 1 and 1000').default(10),
    MFA_VERIFY_LIMIT_PER_ADDRESS: z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, 'must be between 1 and 10000').max(10000, 'must be between 1 and 10000').default(30),
    MFA_VERIFY_LIMIT_WINDOW_SECONDS: z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, 'must be between 1 and 3600').max(3600, 'must be between 1 and 3600').default(60),

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

    SETUP_INSTRUCTIONS_URL: z.url().default('https://wiki.example.org/mfa/setup'),
    COMMUNITY_URL: z.url().default('https://community.example.org/mfa'),
  })
  .superRefine((env, ctx) => {
    if (env.TLS === 'files') {
      if (!env.TLS_CERT_FILE) ctx.addIssue({ code: 'custom', path: ['TLS_CERT_FILE'], message: 'is required when TLS=files' });
      if (!env.TLS_KEY_FILE) ctx.addIssue({ code: 'custom', path: ['TLS_KEY_FILE'], message: 'is required when TLS=files' });
    }
    if (env.IDP_MODE === 'entra') {
      for (const key of ['ENTRA_TENANT_ID', 'ENTRA_CLIENT_ID', 'ENTRA_API_AUDIENCE', 'ENTRA_API_SCOPE'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when IDP_MODE=entra' });
      }
    }
    if (env.IDP_MODE === 'embedded' && env.NODE_ENV === 'production' && !env.ALLOW_EMBEDDED_IDP_IN_PRODUCTION) {
      ctx.addIssue({
        code: 'custom',
        path: ['IDP_MODE'],
        message:
          'the embedded identity provider (demo staff, known password) is refused when NODE_ENV=production; set IDP_MODE=entra, or ALLOW_EMBEDDED_IDP_IN_PRODUCTION=true to accept the risk',
      });
    }
    if (env.MFA_SECRETS_KEY !== undefined) {
      try {
        parseKey(env.MFA_SECRETS_KEY);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['MFA_SECRETS_KEY'], message: err instanceof Error ? err.message : 'must be 32 bytes in base64' });
      }
    } else if (env.NODE_ENV === 'production' && env.IDP_MODE === 'entra' && env.MFA_PROVIDER === 'builtin') {
      // The builtin store seals secrets with it; a key file generated per instance would not be shared.
      ctx.addIssue({
        code: 'custom',
        path: ['MFA_SECRETS_KEY'],
        message:
          'is required when NODE_ENV=production with IDP_MODE=entra and MFA_PROVIDER=builtin: 32 random bytes in base64 (openssl rand -base64 32), the same for every instance',
      });
    }
    if (env.MFA_BYPASS_PEPPER !== undefined) {
      const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(env.MFA_BYPASS_PEPPER) ? Buffer.from(env.MFA_BYPASS_PEPPER, 'base64').length : 0;
      if (bytes < 32) ctx.addIssue({ code: 'custom', path: ['MFA_BYPASS_PEPPER'], message: 'must be at least 32 bytes in base64 (openssl rand -base64 32)' });
    }
    if (env.MFA_PROVIDER === 'duo') {
      for (const key of ['DUO_ADMIN_INTEGRATION_KEY', 'DUO_ADMIN_SECRET_KEY', 'DUO_API_HOST', 'DUO_AUTH_INTEGRATION_KEY', 'DUO_AUTH_SECRET_KEY'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when MFA_PROVIDER=duo' });
      }
      if (env.NODE_ENV === 'production') {
        for (const key of ['DUO_API_BASE_URL', 'DUO_AUTH_API_BASE_URL'] as const) {
          if (env[key]?.startsWith('http://')) ctx.addIssue({ code: 'custom', path: [key], message: 'must use https when NODE_ENV=production' });
        }
      }
      if (env.DUO_CA_FILE && !fs.existsSync(env.DUO_CA_FILE)) ctx.addIssue({ code: 'custom', path: ['DUO_CA_FILE'], message: 'names no readable file' });
    }
    if (env.PUBLIC_URL && !env.PUBLIC_URL.startsWith('https://')) {
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'must use https (the sign-in library refuses an insecure authority)' });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  /** Public origin + base path, always ending with '/'. */
  publicUrl: string;
  /** Base path of the SPA, always starting and ending with '/'. */
  basePath: string;
  dataDir: string;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
  tls: { mode: Env['TLS']; certFile?: string; keyFile?: string };
  databaseUrl?: string;
  databasePoolSize: number;
  idp:
    | { mode: 'embedded'; issuer: string; clientId: string; audience: string; scope: string; demoPassword: string }
    | { mode: 'entra'; tenantId: string; authorityHost: string; clientId: string; audience: string; scope: string };
  roles: RoleNames;
  redirectWhitelist: string[];
  mfaProvider: Env['MFA_PROVIDER'];
  mfa: MfaConfig;
  /** Set when MFA_PROVIDER=duo. */
  duo: DuoConfig | null;
  links: { setupInstructions: string; community: string };
}

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
  lockout: { maxFailures: number; lockMinutes: number };
  /** Verification attempts allowed per window, per user and per client address. */
  verifyRateLimit: { perUser: number; perAddress: number; windowSeconds: number };
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates configuration; throws ConfigError listing every bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings mean "not set", as in most deployment tools.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = issue.path.join('.') || '(environment)';
        const got = typeof cleaned[key] === 'string' ? ` (got "${key.includes('PASSWORD') || key.includes('SECRET') || key.includes('PEPPER') ? '***' : cleaned[key]}")` : '';
        return `${key}: ${issue.message}${got}`;
      }),
    );
  }
  const env = parsed.data;
  const publicUrl = withTrailingSlash(env.PUBLIC_URL ?? `https://localhost:${env.PORT}/`);
  const basePath = withTrailingSlash(new URL(publicUrl).pathname);
  const origin = new URL(publicUrl).origin;
  const idp: AppConfig['idp'] =
    env.IDP_MODE === 'embedded'
      ? {
          mode: 'embedded',
          issuer: `${origin}${basePath}idp`,
          clientId: env.EMBEDDED_CLIENT_ID,
          audience: env.EMBEDDED_API_AUDIENCE,
          scope: `${env.EMBEDDED_API_AUDIENCE}/${env.API_SCOPE_NAME}`,
          demoPassword: env.DEMO_PASSWORD,
        }
      : {
          mode: 'entra',
          tenantId: env.ENTRA_TENANT_ID!,
          authorityHost: env.ENTRA_AUTHORITY_HOST.replace(/\/+$/, ''),
          clientId: env.ENTRA_CLIENT_ID!,
          audience: env.ENTRA_API_AUDIENCE!,
          scope: env.ENTRA_API_SCOPE!,
        };
  return Object.freeze({
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl,
    basePath,
    dataDir: path.resolve(env.DATA_DIR),
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    tls: { mode: env.TLS, certFile: env.TLS_CERT_FILE, keyFile: env.TLS_KEY_FILE },
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    idp,
    roles: { helpdesk: env.ROLE_HELPDESK, solutionAdmin: env.ROLE_SOLUTION_ADMIN, restricted: env.RESTRICTED_ROLES },
    redirectWhitelist: env.REDIRECT_WHITELIST ?? uniq(['https://localhost', 'https://127.0.0.1', origin]),
    mfaProvider: env.MFA_PROVIDER,
    mfa: {
      secretsKey: env.MFA_SECRETS_KEY === undefined ? null : parseKey(env.MFA_SECRETS_KEY),
      bypassPepper: env.MFA_BYPASS_PEPPER === undefined ? null : Buffer.from(env.MFA_BYPASS_PEPPER, 'base64'),
      totpIssuer: env.MFA_TOTP_ISSUER,
      stepUpMaxAgeSeconds: env.STEP_UP_MAX_AGE_SECONDS,
      lockout: { maxFailures: env.MFA_LOCKOUT_MAX_FAILURES, lockMinutes: env.MFA_LOCKOUT_MINUTES },
      verifyRateLimit: { perUser: env.MFA_VERIFY_LIMIT_PER_USER, perAddress: env.MFA_VERIFY_LIMIT_PER_ADDRESS, windowSeconds: env.MFA_VERIFY_LIMIT_WINDOW_SECONDS },
    },
    duo: env.MFA_PROVIDER === 'duo' ? duoConfigOf(env) : null,
    links: { setupInstructions: env.SETUP_INSTRUCTIONS_URL, community: env.COMMUNITY_URL },
  });
}

function duoConfigOf(env: Env): DuoConfig {
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
  };
}

function withTrailingSlash(s: string): string {
  return s.endsWith('/') ? s : `${s}/`;
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
