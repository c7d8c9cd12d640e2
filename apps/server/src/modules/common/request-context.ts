import type { FastifyRequest } from 'fastify';

/** Who asks and from where: what services need of a request (audit, rate limits), nothing else. */
export interface RequestContext {
  upn: string;
  roles: readonly string[];
  requestId: string;
  clientAddress: string | null;
  /** The caller's sign-in session (an opaque digest): what grants such as a step-up are bound to. */
  session: string;
  /** Authentication methods of the sign-in (`amr`), e.g. ['pwd', 'mfa']. */
  amr: readonly string[];
}

/** The context of an authenticated request (`request.caller` is set by the `authenticate` hook). */
export function contextOf(request: FastifyRequest): RequestContext {
  return {
    upn: request.caller.upn,
    roles: request.caller.roles,
    requestId: request.id,
    clientAddress: request.ip ?? null,
    session: request.caller.session,
    amr: request.caller.amr,
  };
}
