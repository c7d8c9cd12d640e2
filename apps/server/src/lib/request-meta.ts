import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/**
 * What the audit log records of the request in progress besides what services pass explicitly: the
 * client's User-Agent (sign-in activity shows browser and system). Kept in an AsyncLocalStorage set at
 * `onRequest`, so sign-ins at the embedded identity provider and verifications carry it as well.
 */
export interface RequestMeta {
  userAgent: string | null;
  /**
   * Details every audit event of this actor carries for the rest of the request, set once the request
   * is allowed: e.g. the administrative unit that let a helpdesk member act on the person.
   */
  auditDetails?: { actor: string; details: Record<string, unknown> };
}

const storage = new AsyncLocalStorage<RequestMeta>();
const MAX_USER_AGENT = 512;

/** The meta of the request in progress; null outside a request (jobs, tests calling services). */
export function currentRequestMeta(): RequestMeta | null {
  return storage.getStore() ?? null;
}

/** Adds details to every audit event `actor` appends during the request in progress (none outside a request). */
export function addRequestAuditDetails(actor: string, details: Record<string, unknown>): void {
  const meta = storage.getStore();
  if (meta) meta.auditDetails = { actor: actor.toLowerCase(), details: { ...meta.auditDetails?.details, ...details } };
}

/** The details the request in progress adds to an event of `actor` (see {@link addRequestAuditDetails}). */
export function requestAuditDetails(actor: string | null | undefined): Record<string, unknown> | null {
  const extra = storage.getStore()?.auditDetails;
  return extra && actor && extra.actor === actor.toLowerCase() ? extra.details : null;
}

/** Cleans a header: control characters removed, at most 512 characters, null when empty. */
export function cleanUserAgent(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, MAX_USER_AGENT);
  return text || null;
}

export function installRequestMeta(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    storage.run({ userAgent: cleanUserAgent(request.headers['user-agent']) }, done);
  });
}
