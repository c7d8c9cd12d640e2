import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  claimHardwareTokenBodySchema,
  confirmTotpBodySchema,
  deleteDeviceQuerySchema,
  deviceIdParamsSchema,
  deviceSchema,
  devicesResponseSchema,
  enrolmentIdParamsSchema,
  renameDeviceBodySchema,
  resyncHardwareTokenBodySchema,
  testDeviceBodySchema,
  testDeviceResponseSchema,
  totpEnrolmentResponseSchema,
} from '@mfa-portal/shared';
import { contextOf } from '../common/request-context.js';
import { CHANGE_ERRORS, COMMON_ERRORS, ME_TAGS, SECURITY, noContent } from '../common/route-schemas.js';
import { installSelfServiceHooks, selfPolicy, type SelfRoutesOptions } from '../common/self-routes.js';
import type { DevicesService } from './devices.service.js';

/**
 * The caller's devices under `<basePath>api/me/devices`: list, add an authenticator app or a hardware token,
 * resynchronise, rename, remove and test one.
 * Every route needs a bearer token and answers with `cache-control: no-store`.
 */
export async function deviceRoutes(app: FastifyInstance, opts: SelfRoutesOptions & { service: DevicesService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const devices = opts.service;
  const self = selfPolicy(opts.policy, opts.audit, opts.protectedFirstDevice);
  const changeMfa = self('me.change_mfa');
  installSelfServiceHooks(app, opts.verify);

  r.get(
    '/devices',
    {
      schema: { tags: ME_TAGS, security: SECURITY, summary: 'List my devices', response: { 200: devicesResponseSchema, ...COMMON_ERRORS } },
    },
    async (request) => devices.listDevices(contextOf(request)),
  );

  r.post(
    '/devices/authenticator',
    {
      preValidation: changeMfa,
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Start adding an authenticator app (TOTP): returns the secret and QR code to scan',
        description: 'Needs a step-up when the user already has a device. Confirm within the enrolment lifetidevices.',
        response: { 201: totpEnrolmentResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await devices.startTotpEnrolment(contextOf(request))),
  );

  r.post(
    '/devices/authenticator/:enrolmentId/confirm',
    {
      preValidation: changeMfa,
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Confirm an authenticator enrolment with its first code',
        params: enrolmentIdParamsSchema,
        body: confirmTotpBodySchema,
        response: { 201: deviceSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await devices.confirmTotpEnrolment(contextOf(request), request.params.enrolmentId, request.body)),
  );

  r.post(
    '/devices/hardware-token',
    {
      preValidation: changeMfa,
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Claim a Duo D100 hardware token by serial and two consecutive codes',
        description: 'Needs a step-up when the user already has a device.',
        body: claimHardwareTokenBodySchema,
        response: { 201: deviceSchema, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => reply.code(201).send(await devices.claimHardwareToken(contextOf(request), request.body)),
  );

  r.post(
    '/devices/:id/resync',
    {
      preValidation: changeMfa,
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Resynchronise my hardware token with three consecutive codes',
        params: deviceIdParamsSchema,
        body: resyncHardwareTokenBodySchema,
        response: { 200: deviceSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => devices.resyncHardwareToken(contextOf(request), request.params.id, request.body.codes),
  );

  r.patch(
    '/devices/:id',
    {
      preValidation: changeMfa,
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Rename one of my devices',
        params: deviceIdParamsSchema,
        body: renameDeviceBodySchema,
        response: { 200: deviceSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => devices.renameDevice(contextOf(request), request.params.id, request.body.name),
  );

  r.delete(
    '/devices/:id',
    {
      preValidation: changeMfa,
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Remove one of my devices (a hardware token returns to the inventory)',
        description: 'Needs a step-up. Removing the last device needs confirmLastDevice=true (409 otherwise).',
        params: deviceIdParamsSchema,
        querystring: deleteDeviceQuerySchema,
        response: { 204: noContent, ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => {
      await devices.deleteDevice(contextOf(request), request.params.id, request.query.confirmLastDevice === 'true');
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/devices/:id/test',
    {
      schema: {
        tags: ME_TAGS,
        security: SECURITY,
        summary: 'Check a passcode from one of my devices now',
        params: deviceIdParamsSchema,
        body: testDeviceBodySchema,
        response: { 200: testDeviceResponseSchema, ...CHANGE_ERRORS },
      },
    },
    async (request) => devices.testDevice(contextOf(request), request.params.id, request.body.code),
  );
}
