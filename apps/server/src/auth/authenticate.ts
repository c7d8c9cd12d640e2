import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, TokenVerifier } from './token-verifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

/** onRequest hook (before validation, so an anonymous caller learns nothing else) that verifies the bearer token and sets `request.caller`; 401 otherwise. */
export function authenticate(verify: TokenVerifier) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    request.caller = await verify(request.headers.authorization);
  };
}
