import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_RESTRICTED_ROLES, ROLE_HELPDESK, ROLE_SOLUTION_ADMIN, type RoleNames } from '@mfa-portal/shared';

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
  links: { setupInstructions: string; community: string };
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
        const got = typeof cleaned[key] === 'string' ? ` (got "${key.includes('PASSWORD') || key.includes('SECRET') ? '***' : cleaned[key]}")` : '';
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
    links: { setupInstructions: env.SETUP_INSTRUCTIONS_URL, community: env.COMMUNITY_URL },
  });
}

function withTrailingSlash(s: string): string {
  return s.endsWith('/') ? s : `${s}/`;
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
