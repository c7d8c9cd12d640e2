import path from 'node:path';
import {
  ENTRA_ROLE_HELPDESK,
  ENTRA_ROLE_SOLUTION_ADMIN,
  ROLE_HELPDESK,
  ROLE_SOLUTION_ADMIN,
  type RoleNames,
  type ServiceDeskContact,
} from '@mfa-portal/shared';
import { envSchema, type Env } from './config-env.js';
import { parseIpLocations, type IpLocation } from './lib/ip-locations.js';
import { duoConfigOf, mfaConfigOf, type DuoConfig, type MfaConfig } from './config.mfa.js';
import { siemConfigOf, type SiemConfig } from './config.siem.js';

export type { Env } from './config-env.js';
export type { DuoApplicationConfig, DuoConfig, MfaConfig, WebPushConfig } from './config.mfa.js';
export type { SiemConfig, SyslogStreamConfig, WebhookStreamConfig } from './config.siem.js';

/**
 * Configuration is read from the environment once, validated, and frozen.
 * Every bad variable is reported by name with what was expected; the process then exits.
 */

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
  /** JSON lines, or readable lines for a terminal (`auto`: when stdout is one). */
  logFormat: Env['LOG_FORMAT'];
  trustProxy: boolean;
  tls: { mode: Env['TLS']; certFile?: string; keyFile?: string };
  databaseUrl?: string;
  databasePoolSize: number;
  /** Bounded waits on PostgreSQL: a connection attempt, one query, the readiness probe's check. */
  databaseTimeouts: { connectMs: number; queryMs: number; readinessMs: number };
  /** GET /metrics: off (null), on the main port behind a bearer token, or on its own port (no token needed, token honoured). */
  metrics: { token: string | null; port: number | null; host: string };
  /** Header a request id is read from (when well-formed) and returned in. */
  requestIdHeader: string;
  /** On SIGTERM: how long requests in flight may take to finish before the process gives up. */
  shutdownGraceSeconds: number;
  /** After SIGTERM, how long the listener keeps answering (not ready, `Connection: close`) before it closes. */
  shutdownDelaySeconds: number;
  /**
   * Per-user read caches: verified tokens, session revocations and the builtin provider's
   * MFA data, kept true by the database's change feed. READ_CACHE=false reads the database every time.
   */
  readCache: boolean;
  /**
   * How often the change feed sends a heartbeat through the database, and how long it may take to come
   * back before the feed counts as down (the caches keep nothing until one is heard again).
   */
  changeFeedHeartbeatMs: number;
  idp:
    | { mode: 'embedded'; issuer: string; clientId: string; audience: string; scope: string; demoPassword: string }
    | {
        mode: 'entra';
        tenantId: string;
        authorityHost: string;
        clientId: string;
        audience: string;
        scope: string;
        /**
         * Refuse administration to a token that carries no `amr` at all (v2.0 access tokens never do).
         * Off by default: Conditional Access requiring MFA for the portal's app is the normal way.
         */
        requireMfaClaim: boolean;
      };
  roles: RoleNames;
  /** HELPDESK_SCOPE_REQUIRED: a Helpdesk Administrator assigned to no administrative unit reaches nobody. */
  helpdeskScopeRequired: boolean;
  redirectWhitelist: string[];
  mfaProvider: Env['MFA_PROVIDER'];
  mfa: MfaConfig;
  /** Set when MFA_PROVIDER=duo. */
  duo: DuoConfig | null;
  links: { setupInstructions: string; community: string };
  /** How staff reach the service desk (SERVICE_DESK_CONTACT, SERVICE_DESK_LINK); null: not configured. */
  serviceDesk: ServiceDeskContact | null;
  audit: { csvMaxRows: number };
  provisioning: ProvisioningConfig;
  /** Security notifications by e-mail; `smtpUrl` null: none are sent or queued. */
  notifications: NotificationsConfig;
  /** Audit to a SIEM: syslog over TLS and a signed webhook, each null while off. */
  siem: SiemConfig;
  /** Named networks for the approximate location of a client address (IP_LOCATIONS). */
  ipLocations: IpLocation[];
  /** FIDO metadata for passkey attestation; null files: none configured (the AAGUID allow-list is advisory). */
  webauthnMetadata: WebauthnMetadataConfig;
}

/** Where the FIDO metadata comes from (files the administrator supplies; nothing is fetched). */
export interface WebauthnMetadataConfig {
  /** A FIDO MDS3 BLOB (the JWT as downloaded). */
  blobFile: string | null;
  /** PEM root certificate(s) for the BLOB's signature; null: the FIDO Alliance MDS roots. */
  blobRootCertFile: string | null;
  /** A metadata statement file or a folder of them. */
  statementsPath: string | null;
  /** What registration asks the authenticator for when attestation is checked. */
  conveyance: Env['WEBAUTHN_ATTESTATION_CONVEYANCE'];
}

export interface NotificationsConfig {
  smtpUrl: string | null;
  mailFrom: string;
  /** Who hears of a "this wasn't me" report; null: nobody is mailed (the report is still audited). */
  securityContact: string | null;
  pollSeconds: number;
}

/** Provisioning (SCIM, just-in-time) and the embedded directory. */
export interface ProvisioningConfig {
  mode: Env['PROVISIONING'];
  /** SCIM_TOKEN: a bearer token accepted besides those an administrator creates; null: none. */
  scimToken: string | null;
  jitAllowedRoles: string[];
  jitAllowedGroups: string[];
  demoData: boolean;
  /** SCIM group display names whose members get these roles from the embedded identity provider. */
  groupRoles: { helpdesk: string | null; solutionAdmin: string | null };
  /**
   * Accounts SCIM did not create that it may take over (SCIM_ADOPT_EXISTING), protected ones included
   * (SCIM_ADOPT_PROTECTED). Accounts created just in time under PROVISIONING=both are adopted without these.
   */
  scimAdopt: { existing: boolean; protected: boolean };
  /** First-device policy and, for `window`, its length in days. */
  firstDevice: { policy: Env['FIRST_DEVICE_POLICY']; windowDays: number };
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
        const got =
          typeof cleaned[key] === 'string'
            ? ` (got "${key.includes('PASSWORD') || key.includes('SECRET') || key.includes('PRIVATE') || key.includes('PEPPER') || key.includes('TOKEN') || key === 'SMTP_URL' || key === 'AUDIT_WEBHOOK_URL' ? '***' : cleaned[key]}")`
            : '';
        return `${key}: ${issue.message}${got}`;
      }),
    );
  }
  const env = parsed.data;
  let ipLocations: IpLocation[];
  try {
    ipLocations = parseIpLocations(env.IP_LOCATIONS);
  } catch (err) {
    throw new ConfigError([`IP_LOCATIONS: ${(err as Error).message}`]);
  }
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
          requireMfaClaim: env.ENTRA_REQUIRE_MFA_CLAIM,
        };
  return Object.freeze({
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl,
    basePath,
    dataDir: path.resolve(env.DATA_DIR),
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    trustProxy: env.TRUST_PROXY,
    tls: { mode: env.TLS, certFile: env.TLS_CERT_FILE, keyFile: env.TLS_KEY_FILE },
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseTimeouts: {
      connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      queryMs: env.DATABASE_QUERY_TIMEOUT_MS,
      readinessMs: env.READINESS_TIMEOUT_MS,
    },
    metrics: { token: env.METRICS_TOKEN ?? null, port: env.METRICS_PORT ?? null, host: env.METRICS_HOST ?? env.HOST },
    requestIdHeader: env.REQUEST_ID_HEADER,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    shutdownDelaySeconds: env.SHUTDOWN_DELAY_SECONDS,
    readCache: env.READ_CACHE,
    changeFeedHeartbeatMs: env.CHANGE_FEED_HEARTBEAT_MS,
    idp,
    roles: rolesOf(env),
    helpdeskScopeRequired: env.HELPDESK_SCOPE_REQUIRED,
    redirectWhitelist: env.REDIRECT_WHITELIST ?? uniq(['https://localhost', origin]),
    mfaProvider: env.MFA_PROVIDER,
    mfa: mfaConfigOf(env),
    duo: env.MFA_PROVIDER === 'duo' ? duoConfigOf(env) : null,
    links: { setupInstructions: env.SETUP_INSTRUCTIONS_URL, community: env.COMMUNITY_URL },
    serviceDesk: env.SERVICE_DESK_CONTACT ? { text: env.SERVICE_DESK_CONTACT.trim(), link: env.SERVICE_DESK_LINK ?? null } : null,
    audit: { csvMaxRows: env.AUDIT_CSV_MAX_ROWS },
    provisioning: {
      mode: env.PROVISIONING,
      scimToken: env.SCIM_TOKEN ?? null,
      jitAllowedRoles: env.JIT_ALLOWED_ROLES,
      jitAllowedGroups: env.JIT_ALLOWED_GROUPS,
      demoData: env.DEMO_DATA,
      groupRoles: { helpdesk: env.SCIM_GROUP_HELPDESK ?? null, solutionAdmin: env.SCIM_GROUP_SOLUTION_ADMIN ?? null },
      scimAdopt: { existing: env.SCIM_ADOPT_EXISTING, protected: env.SCIM_ADOPT_PROTECTED },
      firstDevice: { policy: env.FIRST_DEVICE_POLICY, windowDays: env.FIRST_DEVICE_WINDOW_DAYS },
    },
    notifications: {
      smtpUrl: env.SMTP_URL ?? null,
      mailFrom: env.MAIL_FROM ?? `MFA portal <no-reply@${new URL(publicUrl).hostname}>`,
      securityContact: env.SECURITY_CONTACT_EMAIL ?? null,
      pollSeconds: env.NOTIFY_POLL_SECONDS,
    },
    siem: siemConfigOf(env, publicUrl),
    ipLocations,
    webauthnMetadata: {
      blobFile: env.WEBAUTHN_MDS_BLOB_FILE ?? null,
      blobRootCertFile: env.WEBAUTHN_MDS_ROOT_CERT_FILE ?? null,
      statementsPath: env.WEBAUTHN_METADATA_STATEMENTS ?? null,
      conveyance: env.WEBAUTHN_ATTESTATION_CONVEYANCE,
    },
  });
}

/**
 * Role names in the token's `roles` claim. Embedded mode: the specification's names, which its own
 * provider issues. Entra mode: the app role values `Helpdesk.Administrator` and `Solution.Administrator`
 * (Entra allows no spaces in a value; the display names keep the specification's names). Holders of
 * both are restricted (protected accounts) unless RESTRICTED_ROLES says otherwise.
 */
function rolesOf(env: Env): RoleNames {
  const entra = env.IDP_MODE === 'entra';
  const helpdesk = env.ROLE_HELPDESK ?? (entra ? ENTRA_ROLE_HELPDESK : ROLE_HELPDESK);
  const solutionAdmin = env.ROLE_SOLUTION_ADMIN ?? (entra ? ENTRA_ROLE_SOLUTION_ADMIN : ROLE_SOLUTION_ADMIN);
  return { helpdesk, solutionAdmin, restricted: env.RESTRICTED_ROLES ?? [solutionAdmin, helpdesk] };
}

function withTrailingSlash(s: string): string {
  return s.endsWith('/') ? s : `${s}/`;
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
