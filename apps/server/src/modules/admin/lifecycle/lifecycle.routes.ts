import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminAccountStatusBodySchema,
  adminRevokeBypassCodesBodySchema,
  adminRevokeBypassCodesResponseSchema,
  adminUserParamsSchema,
  enrolmentPassesResponseSchema,
  enrolmentPassInfoSchema,
  errorBodySchema,
  issueEnrolmentPassBodySchema,
  issueEnrolmentPassResponseSchema,
  mfaDataSchema,
} from '@mfa-portal/shared';
import { contextOf } from '../../common/request-context.js';
import type { EnrolmentPassService } from '../../enrolment-pass/enrolment-pass.service.js';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import type { IdentityVerifications } from '../common/identity-verification.js';
import type { LifecycleService } from './lifecycle.service.js';

const ERRORS = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema } as const;
const TAGS = ['admin'];

/**
 * `/api/admin/users/:upn/...` lifecycle actions: disable, enable, revoke unused bypass codes, and
 * enrolment passes (issue, list, revoke). Bearer token first, then the policy decision on the target
 * (a denial is audited and answered 403 before the body is validated), then the service.
 */
export async function lifecycleRoutes(
  app: FastifyInstance,
  opts: AdminRoutesOptions & { lifecycle: LifecycleService; passes: EnrolmentPassService; verifications: IdentityVerifications },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The same bearer-token, no-store and audited policy hooks as every other admin routes plugin.
  const { onUser, roleOf } = installAdminHooks(app, opts);

  for (const [path, enabled] of [
    ['/:upn/disable', false],
    ['/:upn/enable', true],
  ] as const) {
    r.post(
      path,
      {
        preValidation: onUser('admin.user.disable'),
        schema: {
          tags: TAGS,
          security: [{ bearerAuth: [] }],
          params: adminUserParamsSchema,
          body: adminAccountStatusBodySchema,
          response: { 200: mfaDataSchema, ...ERRORS },
        },
      },
      async (request) => opts.lifecycle.setEnabled(contextOf(request), roleOf(request), request.params.upn, enabled, request.body),
    );
  }

  r.post(
    '/:upn/bypass-codes/revoke',
    {
      preValidation: onUser('admin.user.revoke_bypass_codes'),
      schema: {
        tags: TAGS,
        params: adminUserParamsSchema,
        body: adminRevokeBypassCodesBodySchema,
        response: { 200: adminRevokeBypassCodesResponseSchema, ...ERRORS },
      },
    },
    async (request) => opts.lifecycle.revokeBypassCodes(contextOf(request), roleOf(request), request.params.upn, request.body),
  );

  r.get(
    '/:upn/enrolment-passes',
    {
      preValidation: onUser('admin.user.read'),
      schema: {
        tags: TAGS,
        security: [{ bearerAuth: [] }],
        params: adminUserParamsSchema,
        response: { 200: enrolmentPassesResponseSchema, ...ERRORS },
      },
    },
    async (request) => opts.passes.list(request.params.upn),
  );
  r.post(
    '/:upn/enrolment-passes',
    {
      preValidation: onUser('admin.user.issue_enrolment_pass'),
      schema: {
        tags: TAGS,
        params: adminUserParamsSchema,
        body: issueEnrolmentPassBodySchema,
        response: { 201: issueEnrolmentPassResponseSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      // Verify, then issue: a pass lets someone enrol a device as this user.
      const ctx = contextOf(request);
      const role = roleOf(request);
      const verified = await opts.verifications.require(ctx, role, request.params.upn, 'admin.user.issue_enrolment_pass', request.body);
      return reply.code(201).send(await opts.passes.issue(ctx, role, request.params.upn, request.body, verified));
    },
  );
  r.delete(
    '/:upn/enrolment-passes/:id',
    {
      preValidation: onUser('admin.user.issue_enrolment_pass'),
      schema: {
        tags: TAGS,
        params: adminUserParamsSchema.extend({ id: z.uuid('must be an enrolment pass id') }),
        response: { 200: enrolmentPassInfoSchema, ...ERRORS },
      },
    },
    async (request) => opts.passes.revoke(contextOf(request), roleOf(request), request.params.upn, request.params.id),
  );
}
