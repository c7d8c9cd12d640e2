import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CLAIMS_HEADER, errorBodySchema, userInfoQuerySchema, userInfoResponseSchema, type MfaData } from '@mfa-portal/shared';
import type { ReadCache } from '../../lib/read-cache.js';
import type { AppConfig } from '../../config.js';
import { authenticate } from '../../auth/authenticate.js';
import type { TokenVerifier } from '../../auth/token-verifier.js';
import type { MfaProvider } from '../../mfa/port.js';
import type { DirectoryRepository } from '../directory/directory.repository.js';
import type { JitProvisioning } from '../provisioning/jit.service.js';
import { getUserInfo } from './account.service.js';

export async function accountRoutes(
  app: FastifyInstance,
  opts: {
    config: AppConfig;
    verify: TokenVerifier;
    mfa: MfaProvider;
    directory: DirectoryRepository;
    jit?: JitProvisioning;
    userData?: ReadCache<MfaData> | null;
  },
): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/account/getuserinfo',
    {
      onRequest: authenticate(opts.verify),
      schema: {
        querystring: userInfoQuerySchema,
        response: { 200: userInfoResponseSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const claims = request.headers[CLAIMS_HEADER];
      const body = await getUserInfo(opts, request.caller, request.query, Array.isArray(claims) ? claims[0] : claims, {
        requestId: request.id,
        clientAddress: request.ip ?? null,
      });
      return reply.header('cache-control', 'no-store').send(body);
    },
  );
}
