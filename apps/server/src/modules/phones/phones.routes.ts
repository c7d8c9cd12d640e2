import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addPhoneBodySchema,
  deviceIdParamsSchema,
  deviceSchema,
  phoneActivationResponseSchema,
  pushParamsSchema,
  pushTransactionSchema,
  startedPushSchema,
  smsActivationResponseSchema,
} from '@mfa-portal/shared';
import { contextOf } from '../common/request-context.js';
import { CHANGE_ERRORS, ME_TAGS, SECURITY } from '../common/route-schemas.js';
import { installSelfServiceHooks, selfPolicy, type SelfRoutesOptions } from '../common/self-routes.js';
import type { PhonesService } from './phones.service.js';

/**
 * The caller's phones under `<basePath>api/me/devices`: add one, activate its push app (QR code or text
 * message) and send it a test push.
 * Every route needs a bearer token and answers with `cache-control: no-store`.
 */
export async function phoneRoutes(app: FastifyInstance, opts: SelfRoutesOptions & { service: PhonesService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const phones = opts.service;
  const self = selfPolicy(opts.policy, opts.audit, opts.protectedFirstDevice);
  const changeMfa = self('me.change_mfa');
  installSelfServiceHooks(app, opts.verify);

  r.post(
    '/devices/phone',
    {
      preValidation: changeMfa,
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Add a phone (E.164 number and platform); then activate it for push',
        description:
          'Needs a step-up when the user already has a device. 409 mfa.not_supported_by_provider when the provider has no phone channel.',
        body: addPhoneBodySchema,
        response: { 201: deviceSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await phones.addPhone(contextOf(request), request.body)),
  );

  r.get(
    '/devices/:id/activation',
    {
      preValidation: changeMfa,
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: "A fresh activation link and QR code (SVG) for one of my phones' push app",
        description: 'Each call makes a new link (the previous one stops working). Needs a step-up when the user has another device.',
        params: deviceIdParamsSchema,
        response: { 200: phoneActivationResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => phones.phoneActivation(contextOf(request), request.params.id),
  );

  r.post(
    '/devices/:id/activation/sms',
    {
      preValidation: changeMfa,
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Send the activation link to one of my phones by text message',
        description: 'Needs a step-up when the user has another device.',
        params: deviceIdParamsSchema,
        response: { 200: smsActivationResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => phones.sendSmsActivation(contextOf(request), request.params.id),
  );

  r.post(
    '/devices/:id/push',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Send a test push to one of my phones (answers at once; poll its state)',
        params: deviceIdParamsSchema,
        response: { 202: startedPushSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(202).send(await phones.startTestPush(contextOf(request), request.params.id)),
  );

  r.get(
    '/devices/:id/push/:txid',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'The state of a test push: waiting, approved, denied, fraud or timeout',
        params: pushParamsSchema,
        response: { 200: pushTransactionSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => phones.testPushStatus(contextOf(request), request.params.id, request.params.txid),
  );
}
