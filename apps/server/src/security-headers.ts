import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import { AUTHENTICATOR_APP_PATH } from '@mfa-portal/shared';
import type { AppConfig } from './config.js';
import { PERMISSIONS_POLICY } from './lib/permissions-policy.js';

function contentSecurityPolicy(config: AppConfig) {
  const idpOrigin = config.idp.mode === 'entra' ? [new URL(config.idp.authorityHost).origin] : [];
  return {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'"],
      'connect-src': ["'self'", ...idpOrigin],
      'frame-src': ["'self'", ...idpOrigin],
      'worker-src': ["'self'"],
      'manifest-src': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
      'base-uri': ["'self'"],
      'object-src': ["'none'"],
      'upgrade-insecure-requests': [],
    },
  };
}

/**
 * The authenticator app's pages talk to their own origin only (the app's API, the translations):
 * no identity provider to reach or frame, unlike the portal's pages. Its manifest and service
 * worker come from the app's own folder; nothing is inline.
 */
export const AUTHENTICATOR_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'none'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
  'upgrade-insecure-requests',
].join(';');

/** The security headers of every response: helmet's, the permissions policy, and who may frame what. */
export async function installSecurityHeaders(app: FastifyInstance, config: AppConfig): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
  });
  // Every response, the provider's hijacked ones too (written to the raw response, like helmet's).
  app.addHook('onRequest', async (_request, reply) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
  });
  app.addHook('onRequest', async (request, reply) => {
    if ((request.url.split('?')[0] ?? '').startsWith(`${config.basePath}${AUTHENTICATOR_APP_PATH}`)) {
      reply.raw.setHeader('content-security-policy', AUTHENTICATOR_APP_CSP);
    }
  });
  // The silent-renewal iframe loads the provider's authorize endpoint and the redirect bridge page
  // from this same origin: those two (and only those) may be framed by the portal itself.
  app.addHook('onRequest', async (request, reply) => {
    const p = request.url.split('?')[0] ?? '';
    if (p === `${config.basePath}auth-bridge.html` || p === `${config.basePath}idp/auth` || p.startsWith(`${config.basePath}idp/auth/`)) {
      // helmet writes to the raw response (so hijacked responses of the provider carry them too).
      const csp = String(reply.raw.getHeader('content-security-policy') ?? '').replace("frame-ancestors 'none'", "frame-ancestors 'self'");
      reply.raw.setHeader('content-security-policy', csp);
      reply.raw.setHeader('x-frame-options', 'SAMEORIGIN');
    }
  });
}
