import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  factorPolicyGlobalSchema,
  factorPolicyGroupParamsSchema,
  factorPolicyOverrideBodySchema,
  factorPolicyOverrideSchema,
  factorPolicyPreviewBodySchema,
  factorPolicyPreviewSchema,
  factorPolicyResponseSchema,
  factorPolicyRuleSchema,
} from '@mfa-portal/shared';
import { contextOf } from '../../common/request-context.js';
import { ADMIN_ERRORS, ADMIN_TAGS, SECURITY } from '../../common/route-schemas.js';
import { installAdminHooks, type AdminRoutesOptions } from '../common/admin-routes.js';
import type { FactorPolicyAdminService } from './factor-policy-admin.service.js';

const REFUSAL =
  'Refused with 409 factor_policy.would_leave_without_factor (details.people: who, details.count: how many) when anyone who holds a factor they may use now would hold none they may use; nothing is stored.';
const BAD_RULE = 'A policy with which no kind of factor could be used is 400 factor_policy.no_usable_kind (field use).';

/**
 * The factor policy under `<basePath>api/admin/factor-policy` (Solution Administrators only): the global
 * policy, directory groups' overrides, and the preview of a change. Bearer token, then the policy
 * decision (a denial is audited and answered 403 before the input is looked at), then validation.
 */
export async function factorPolicyAdminRoutes(app: FastifyInstance, opts: AdminRoutesOptions & { service: FactorPolicyAdminService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = opts;
  const { global, roleOf } = installAdminHooks(app, opts);
  const manage = global('admin.factor_policy.manage');

  r.get(
    '/factor-policy',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'The factor policy: the global policy and each directory group’s override',
        description:
          'A person in no group with an override gets the global policy; one in several gets the strictest combination of their groups’ overrides (kinds every one allows, phishing-resistant if any requires it, the smallest maximum).',
        response: { 200: factorPolicyResponseSchema, ...ADMIN_ERRORS },
      },
    },
    async () => service.get(),
  );

  r.put(
    '/factor-policy/global',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Change the global policy (audited)',
        description: `${REFUSAL} ${BAD_RULE}`,
        body: factorPolicyRuleSchema,
        response: { 200: factorPolicyGlobalSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => service.setGlobal(contextOf(request), roleOf(request), request.body),
  );

  r.post(
    '/factor-policy/groups',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Give a directory group a policy of its own (audited)',
        description: `An unknown group is 400 factor_policy.group_unknown (field groupId); a group with one already, 409 factor_policy.override_exists. ${REFUSAL} ${BAD_RULE}`,
        body: factorPolicyOverrideBodySchema,
        response: { 201: factorPolicyOverrideSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const { groupId, ...rule } = request.body;
      return reply.code(201).send(await service.createOverride(contextOf(request), roleOf(request), groupId, rule));
    },
  );

  r.put(
    '/factor-policy/groups/:groupId',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Change a directory group’s policy (audited)',
        description: `A group without a policy of its own is 404 factor_policy.override_not_found. ${REFUSAL} ${BAD_RULE}`,
        params: factorPolicyGroupParamsSchema,
        body: factorPolicyRuleSchema,
        response: { 200: factorPolicyOverrideSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => service.updateOverride(contextOf(request), roleOf(request), request.params.groupId, request.body),
  );

  r.delete(
    '/factor-policy/groups/:groupId',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary: 'Remove a directory group’s policy: its members go back to the global policy (audited)',
        description: `Answers the policy removed. A group without a policy of its own is 404 factor_policy.override_not_found. ${REFUSAL}`,
        params: factorPolicyGroupParamsSchema,
        response: { 200: factorPolicyOverrideSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => service.deleteOverride(contextOf(request), roleOf(request), request.params.groupId),
  );

  r.post(
    '/factor-policy/preview',
    {
      preValidation: manage,
      schema: {
        tags: ADMIN_TAGS,
        security: SECURITY,
        summary:
          'What a change would do: how many people it reaches, who would lose every factor they may use, who would hold factors they may no longer use',
        description:
          'Stores nothing. `policy: null` with a group scope previews removing its override. An unknown group is 400 factor_policy.group_unknown (field scope.groupId).',
        body: factorPolicyPreviewBodySchema,
        response: { 200: factorPolicyPreviewSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => service.preview(request.body.scope, request.body.policy),
  );
}
