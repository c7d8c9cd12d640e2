import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isUserText } from '@mfa-portal/shared';

/** What the sign-in pages accept (interaction.routes.ts): rate limits, bodies, and how pages are answered. */

/** Password attempts: per client address and username, and per address over all usernames. */
export const LOGIN_RATE_LIMIT = {
  perUsername: { max: 10, timeWindowMs: 60_000 },
  perAddress: { max: 30, timeWindowMs: 60_000 },
} as const;

/**
 * Second-factor submissions per client address and sign-in (interaction), a first line against
 * floods; the verification service adds its per-user and per-address budgets and the lockout.
 */
export const SECOND_FACTOR_RATE_LIMIT = { perInteraction: { max: 10, timeWindowMs: 60_000 } } as const;

export const MAX_USERNAME = 256;
const MAX_PASSWORD = 1024;

export const paramsSchema = z.object({ uid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
export const loginBodySchema = z.object({
  username: z.string().max(MAX_USERNAME).default(''),
  password: z.string().max(MAX_PASSWORD).default(''),
});
// Longer input is answered on the page ("not a code"), not as a dead end.
export const verifyBodySchema = z.object({ passcode: z.string().max(1024).default('') });

/** The typed username as a rate-limit key (text that cannot be stored counts as one shared key). */
export const usernameOf = (request: FastifyRequest) => {
  const typed = String((request.body as { username?: unknown } | undefined)?.username ?? '')
    .trim()
    .toLowerCase();
  return isUserText(typed) ? typed : '<not text>';
};

export const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
