import fs from 'node:fs';
import { z } from 'zod';
import { parseKey } from './lib/secret-box.js';
import { bool, csv, int, serviceDeskLink, serviceDeskText } from './config-env.fields.js';
import { checkWebPushEnv, mfaEnvFields } from './config-env.mfa.js';
import { checkSiemEnv, siemEnvFields } from './config-env.siem.js';

/**
 * The environment variables the server reads, with their defaults and rules (docs/configuration.md lists
 * them for operators). Field types live in config-env.fields.ts, the MFA provider's variables in config-env.mfa.ts.
 */

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test'], { message: 'must be development, production or test' }).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: z.coerce
      .number({ message: 'must be a number' })
      .int('must be an integer')
      .min(1, 'must be between 1 and 65535')
      .max(65535, 'must be between 1 and 65535')
      .default(8443),
    PUBLIC_URL: z.url({ message: 'must be an absolute https URL such as https://mfa.example.org/' }).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOG_FORMAT: z.enum(['auto', 'json', 'pretty'], { message: 'must be auto, json or pretty' }).default('auto'),
    TRUST_PROXY: bool.default(false),

    TLS: z.enum(['self-signed', 'files', 'off'], { message: 'must be self-signed, files or off' }).default('self-signed'),
    TLS_CERT_FILE: z.string().optional(),
    TLS_KEY_FILE: z.string().optional(),

    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    // Running as a service: bounded waits on PostgreSQL, health, metrics, request ids, shutdown.
    DATABASE_CONNECT_TIMEOUT_MS: int(100, 60000, 3000),
    DATABASE_QUERY_TIMEOUT_MS: int(100, 600000, 10000),
    READINESS_TIMEOUT_MS: int(50, 10000, 1000),
    METRICS_TOKEN: z
      .string()
      .regex(/^[\x21-\x7e]{16,256}$/, 'must be 16 to 256 printable characters without spaces (openssl rand -hex 32)')
      .optional(),
    METRICS_PORT: z.coerce
      .number({ message: 'must be a number' })
      .int('must be an integer')
      .min(1, 'must be between 1 and 65535')
      .max(65535, 'must be between 1 and 65535')
      .optional(),
    METRICS_HOST: z.string().min(1).optional(),
    REQUEST_ID_HEADER: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be an HTTP header name (letters, digits and dashes), e.g. x-request-id')
      .default('x-request-id'),
    SHUTDOWN_GRACE_SECONDS: int(1, 600, 10),
    SHUTDOWN_DELAY_SECONDS: int(0, 300, 0),
    READ_CACHE: bool.default(true),
    CHANGE_FEED_HEARTBEAT_MS: int(50, 60_000, 5000),

    IDP_MODE: z.enum(['embedded', 'entra'], { message: 'must be embedded or entra' }).default('embedded'),
    ALLOW_EMBEDDED_IDP_IN_PRODUCTION: bool.default(false),
    DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('portal-demo'),
    EMBEDDED_CLIENT_ID: z.string().min(1).default('mfa-portal-spa'),
    EMBEDDED_API_AUDIENCE: z.string().min(1).default('api://mfa-portal'),

    ENTRA_TENANT_ID: z
      .string()
      .regex(/^[0-9a-f-]{36}$|^[a-z0-9.-]+$/i, 'must be the tenant GUID or domain')
      .optional(),
    ENTRA_AUTHORITY_HOST: z.url().default('https://login.microsoftonline.com'),
    ENTRA_CLIENT_ID: z.string().uuid('must be the SPA application (client) id, a GUID').optional(),
    ENTRA_API_AUDIENCE: z.string().min(1).optional(),
    ENTRA_API_SCOPE: z.string().min(1).optional(),
    ENTRA_REQUIRE_MFA_CLAIM: bool.default(false),

    API_SCOPE_NAME: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/)
      .default('access_as_user'),
    // Defaults by mode (rolesOf in config.ts): Entra's app role values cannot hold spaces.
    ROLE_HELPDESK: z.string().min(1).optional(),
    ROLE_SOLUTION_ADMIN: z.string().min(1).optional(),
    RESTRICTED_ROLES: csv.optional(),
    // Administrative units: a Helpdesk Administrator assigned to none reaches nobody (false: everyone, as without units).
    HELPDESK_SCOPE_REQUIRED: bool.default(false),
    REDIRECT_WHITELIST: csv.optional(),

    ...mfaEnvFields,

    // Audit CSV export: 0 = every matching row (streamed); a positive cap is stated in the response.
    AUDIT_CSV_MAX_ROWS: int(0, 100_000_000, 0),
    // Duo: how often the portal's directory is refreshed from Duo's user list (0 = never), and how many
    // Admin API calls a second that sync may make.
    DUO_DIRECTORY_SYNC_MINUTES: int(0, 10_080, 360),
    DUO_DIRECTORY_SYNC_CALLS_PER_SECOND: int(1, 50, 2),
    // Provisioning: SCIM 2.0 at /scim/v2 and/or just-in-time creation at first sign-in.
    PROVISIONING: z.enum(['off', 'jit', 'scim', 'both'], { message: 'must be off, jit, scim or both' }).default('scim'),
    SCIM_TOKEN: z.string().min(32, 'must be at least 32 characters (openssl rand -base64 32)').max(512).optional(),
    // Just-in-time provisioning only for holders of one of these roles or members of one of these SCIM groups (empty: everyone).
    JIT_ALLOWED_ROLES: csv.default([]),
    JIT_ALLOWED_GROUPS: csv.default([]),
    // Embedded mode: demo staff and demo tokens (false: an empty directory that SCIM fills).
    DEMO_DATA: bool.default(true),
    // Embedded mode: members of these SCIM groups get the helpdesk / Solution Administrator roles in their tokens.
    SCIM_GROUP_HELPDESK: z.string().trim().min(1).max(256).optional(),
    SCIM_GROUP_SOLUTION_ADMIN: z.string().trim().min(1).max(256).optional(),
    // SCIM may take over accounts it did not create (seeded, imported, or signed in before SCIM knew them): off by default.
    SCIM_ADOPT_EXISTING: bool.default(false),
    // ... protected ones too (a restricted role, or roles not known); only together with SCIM_ADOPT_EXISTING.
    SCIM_ADOPT_PROTECTED: bool.default(false),
    // Who may enrol a first device with a password alone: open (anyone), window (within N days of provisioning), pass (only with an enrolment pass).
    FIRST_DEVICE_POLICY: z.enum(['open', 'window', 'pass'], { message: 'must be open, window or pass' }).default('open'),
    FIRST_DEVICE_WINDOW_DAYS: int(1, 90, 7),

    SETUP_INSTRUCTIONS_URL: z.url().default('https://wiki.example.org/mfa/setup'),
    COMMUNITY_URL: z.url().default('https://community.example.org/mfa'),
    // How staff reach the service desk, shown wherever the portal tells them to contact it.
    SERVICE_DESK_CONTACT: serviceDeskText.optional(),
    SERVICE_DESK_LINK: serviceDeskLink.optional(),

    // Security notifications by e-mail: off when SMTP_URL is unset.
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL, e.g. smtp://mail.example.org:587')
      .optional(),
    MAIL_FROM: z.string().trim().min(3).max(320).optional(),
    SECURITY_CONTACT_EMAIL: z.email('must be an e-mail address').optional(),
    // Approximate locations of client addresses: "10.0.0.0/8=Head office;192.168.10.0/24=Branch office".
    IP_LOCATIONS: z.string().max(10_000).optional(),
    NOTIFY_POLL_SECONDS: int(1, 3600, 5),
    // Audit to a SIEM: syslog over TLS and/or a signed webhook, each off while its URL is unset.
    ...siemEnvFields,

    // Passkey attestation: FIDO metadata the portal checks a new authenticator's attestation against when
    // the WebAuthn policy lists allowed models. Unset: the list is advisory (the model is the authenticator's claim).
    WEBAUTHN_MDS_BLOB_FILE: z.string().min(1).optional(),
    // PEM of the root(s) the BLOB's signing chain must reach; default: the FIDO Alliance MDS roots SimpleWebAuthn ships.
    WEBAUTHN_MDS_ROOT_CERT_FILE: z.string().min(1).optional(),
    // A metadata statement (.json), or a folder of them, for models the BLOB does not describe.
    WEBAUTHN_METADATA_STATEMENTS: z.string().min(1).optional(),
    WEBAUTHN_ATTESTATION_CONVEYANCE: z.enum(['direct', 'enterprise'], { message: 'must be direct or enterprise' }).default('direct'),
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
      for (const key of ['ROLE_HELPDESK', 'ROLE_SOLUTION_ADMIN'] as const) {
        if (env[key] && /\s/.test(env[key]))
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'must be the app role VALUE, which Entra ID allows without spaces (e.g. Helpdesk.Administrator)',
          });
      }
      if (env.RESTRICTED_ROLES?.some((r) => /\s/.test(r))) {
        ctx.addIssue({
          code: 'custom',
          path: ['RESTRICTED_ROLES'],
          message: 'must list app role VALUES, which Entra ID allows without spaces (e.g. Solution.Administrator)',
        });
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
        ctx.addIssue({
          code: 'custom',
          path: ['MFA_SECRETS_KEY'],
          message: err instanceof Error ? err.message : 'must be 32 bytes in base64',
        });
      }
    } else if (env.NODE_ENV === 'production' && env.IDP_MODE !== 'entra' && env.MFA_PROVIDER === 'builtin' && env.DATABASE_URL) {
      // Several instances on one PostgreSQL would each generate a key file of their own.
      ctx.addIssue({
        code: 'custom',
        path: ['MFA_SECRETS_KEY'],
        message:
          'is required when NODE_ENV=production with DATABASE_URL and MFA_PROVIDER=builtin: 32 random bytes in base64 (openssl rand -base64 32), the same for every instance',
      });
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
      if (bytes < 32)
        ctx.addIssue({
          code: 'custom',
          path: ['MFA_BYPASS_PEPPER'],
          message: 'must be at least 32 bytes in base64 (openssl rand -base64 32)',
        });
    }
    checkWebPushEnv(env, (key, message) => ctx.addIssue({ code: 'custom', path: [key], message }));
    checkSiemEnv(env, (key, message) => ctx.addIssue({ code: 'custom', path: [key], message }));
    if (env.MFA_PROVIDER === 'duo') {
      for (const key of [
        'DUO_ADMIN_INTEGRATION_KEY',
        'DUO_ADMIN_SECRET_KEY',
        'DUO_API_HOST',
        'DUO_AUTH_INTEGRATION_KEY',
        'DUO_AUTH_SECRET_KEY',
      ] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when MFA_PROVIDER=duo' });
      }
      if (env.NODE_ENV === 'production') {
        for (const key of ['DUO_API_BASE_URL', 'DUO_AUTH_API_BASE_URL'] as const) {
          if (env[key]?.startsWith('http://'))
            ctx.addIssue({ code: 'custom', path: [key], message: 'must use https when NODE_ENV=production' });
        }
      }
      if (env.DUO_CA_FILE && !fs.existsSync(env.DUO_CA_FILE))
        ctx.addIssue({ code: 'custom', path: ['DUO_CA_FILE'], message: 'names no readable file' });
    }
    if (env.SERVICE_DESK_LINK && !env.SERVICE_DESK_CONTACT) {
      ctx.addIssue({
        code: 'custom',
        path: ['SERVICE_DESK_LINK'],
        message: 'is only used with SERVICE_DESK_CONTACT (the text the link is shown as)',
      });
    }
    if (env.SCIM_ADOPT_PROTECTED && !env.SCIM_ADOPT_EXISTING) {
      ctx.addIssue({ code: 'custom', path: ['SCIM_ADOPT_PROTECTED'], message: 'is only used with SCIM_ADOPT_EXISTING=true' });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'must differ from PORT (leave it unset and set METRICS_TOKEN to serve /metrics on the main port)',
      });
    }
    if (env.METRICS_HOST !== undefined && env.METRICS_PORT === undefined) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_HOST'], message: 'is only used with METRICS_PORT' });
    }
    for (const key of ['WEBAUTHN_MDS_BLOB_FILE', 'WEBAUTHN_MDS_ROOT_CERT_FILE', 'WEBAUTHN_METADATA_STATEMENTS'] as const) {
      if (env[key] && !fs.existsSync(env[key])) ctx.addIssue({ code: 'custom', path: [key], message: 'names no readable file or folder' });
    }
    if (env.WEBAUTHN_MDS_ROOT_CERT_FILE && !env.WEBAUTHN_MDS_BLOB_FILE)
      ctx.addIssue({ code: 'custom', path: ['WEBAUTHN_MDS_ROOT_CERT_FILE'], message: 'is only used with WEBAUTHN_MDS_BLOB_FILE' });
    if (env.PUBLIC_URL && !env.PUBLIC_URL.startsWith('https://')) {
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'must use https (the sign-in library refuses an insecure authority)' });
    }
  });

export type Env = z.infer<typeof envSchema>;
