import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditService } from '../audit/audit.service.js';
import type { ScimContext } from './scim-context.js';
import { auditEntry } from './scim-context.js';
import { asList, resourceTypes, schemas, serviceProviderConfig } from './scim-discovery.js';
import { badRequest, notFound, SCIM_CONTENT_TYPE, ScimError, scimErrorBody } from './scim-errors.js';
import { assertCleanInput } from './scim-input.js';
import type { ListQuery } from './scim-resources.js';
import type { ScimGroupsService } from './scim-groups.service.js';
import type { ScimTokensService } from './scim-tokens.service.js';
import type { ScimUsersService } from './scim-users.service.js';

/**
 * The SCIM 2.0 service provider under `<base>scim/v2` (RFC 7644), for Entra's provisioning service
 * and other directories: bearer-token authentication on every route, `application/scim+json` (and
 * `application/json`) in and out, SCIM error objects for every failure, and an audit event for every
 * change and every refused change.
 */

export const SCIM_BODY_LIMIT = 512 * 1024;

export interface ScimRoutesOptions {
  tokens: ScimTokensService;
  users: ScimUsersService;
  groups: ScimGroupsService;
  audit: AuditService;
  baseUrl: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    scim: ScimContext;
  }
}

function sendScim(reply: FastifyReply, status: number, body: unknown) {
  // A single resource carries its version as its ETag (the value a later If-Match names).
  const version = (body as { meta?: { version?: unknown } } | null)?.meta?.version;
  if (typeof version === 'string') reply.header('etag', version);
  return reply.code(status).header('content-type', SCIM_CONTENT_TYPE).header('cache-control', 'no-store').send(JSON.stringify(body));
}

/** The request's `If-Match` (a write's condition on the version it read), if any. */
function ifMatchOf(request: FastifyRequest): string | undefined {
  const v = request.headers['if-match'];
  return Array.isArray(v) ? v.join(',') : v;
}

/** The query as plain strings (the first of repeated parameters). */
function listQuery(request: FastifyRequest): ListQuery {
  const q = (request.query ?? {}) as Record<string, unknown>;
  const pick = (name: string) => {
    const key = Object.keys(q).find((k) => k.toLowerCase() === name.toLowerCase());
    const v = key === undefined ? undefined : q[key];
    const s = Array.isArray(v) ? v[0] : v;
    if (typeof s === 'string') assertCleanInput(s, `Parameter "${name}"`);
    return typeof s === 'string' ? s : undefined;
  };
  return {
    filter: pick('filter'),
    startIndex: pick('startIndex'),
    count: pick('count'),
    attributes: pick('attributes'),
    excludedAttributes: pick('excludedAttributes'),
  };
}

function toScimError(error: FastifyError | ScimError): ScimError | null {
  if (error instanceof ScimError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ScimError(413, `The request body is larger than ${SCIM_BODY_LIMIT} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ScimError(415, 'Send application/scim+json or application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return badRequest('invalidSyntax', 'The request body is not valid JSON.');
    default:
      break;
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500)
    return new ScimError(error.statusCode, 'The request is not valid.');
  return null;
}

export async function scimRoutes(app: FastifyInstance, opts: ScimRoutesOptions): Promise<void> {
  const { tokens, users, groups, audit, baseUrl } = opts;

  // SCIM bodies are JSON under either media type; a bad body is a SCIM 400 before anything else.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'application/scim+json'],
    { parseAs: 'string', bodyLimit: SCIM_BODY_LIMIT },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(badRequest('invalidSyntax', 'The request body is not valid JSON.') as unknown as FastifyError, undefined);
      }
      done(null, parsed);
    },
  );

  app.setErrorHandler((error: FastifyError | ScimError, request, reply) => {
    const scimError = toScimError(error);
    if (scimError) {
      if (scimError.status === 401) reply.header('www-authenticate', 'Bearer realm="scim"');
      return sendScim(reply, scimError.status, scimErrorBody(scimError));
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled SCIM error');
    return sendScim(reply, 500, scimErrorBody(new ScimError(500, `Something went wrong (request id ${request.id}).`)));
  });
  app.setNotFoundHandler((_request, reply) => sendScim(reply, 404, scimErrorBody(notFound('No such SCIM endpoint.'))));

  // Every route needs a token; bodies are checked for bad strings before any handler runs.
  app.addHook('onRequest', async (request) => {
    const token = await tokens.authenticate(request.headers.authorization);
    request.scim = { tokenName: token.name, tokenCreatedBy: token.createdBy, requestId: request.id, clientAddress: request.ip ?? null };
  });
  app.addHook('preHandler', async (request) => {
    const { id } = (request.params ?? {}) as { id?: unknown };
    if (typeof id === 'string') assertCleanInput(id, 'The id in the path');
    if (request.body !== undefined) assertCleanInput(request.body);
  });

  /** Runs a change; a refused change (after authentication) is audited as a failure. */
  async function change<T>(request: FastifyRequest, action: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ScimError) {
        await audit.append(
          auditEntry(request.scim, {
            action,
            target: null,
            outcome: 'failure',
            reason: `scim.${err.scimType ?? err.status}`,
            details: { status: err.status },
          }),
        );
      }
      throw err;
    }
  }
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  // --- discovery ---
  app.get('/ServiceProviderConfig', async (_req, reply) => sendScim(reply, 200, serviceProviderConfig(baseUrl)));
  app.get('/ResourceTypes', async (_req, reply) => sendScim(reply, 200, asList(resourceTypes(baseUrl))));
  app.get('/ResourceTypes/:id', async (req, reply) => {
    const rt = resourceTypes(baseUrl).find((r) => r.id.toLowerCase() === idOf(req).toLowerCase());
    if (!rt) throw notFound(`No resource type ${idOf(req)}.`);
    return sendScim(reply, 200, rt);
  });
  app.get('/Schemas', async (_req, reply) => sendScim(reply, 200, asList(schemas(baseUrl))));
  app.get('/Schemas/:id', async (req, reply) => {
    const s = schemas(baseUrl).find((r) => r.id.toLowerCase() === idOf(req).toLowerCase());
    if (!s) throw notFound(`No schema ${idOf(req)}.`);
    return sendScim(reply, 200, s);
  });

  // --- Users ---
  app.post('/Users', async (req, reply) => {
    const created = await change(req, 'scim.user.create', () => users.create(req.scim, req.body));
    const meta = created.meta as { location: string };
    return sendScim(reply.header('location', meta.location), 201, created);
  });
  app.get('/Users', async (req, reply) => sendScim(reply, 200, await users.list(req.scim, listQuery(req))));
  app.get('/Users/:id', async (req, reply) => sendScim(reply, 200, await users.get(req.scim, idOf(req), listQuery(req))));
  app.put('/Users/:id', async (req, reply) =>
    sendScim(reply, 200, await change(req, 'scim.user.replace', () => users.replace(req.scim, idOf(req), req.body, ifMatchOf(req)))),
  );
  app.patch('/Users/:id', async (req, reply) =>
    sendScim(reply, 200, await change(req, 'scim.user.update', () => users.patch(req.scim, idOf(req), req.body, ifMatchOf(req)))),
  );
  app.delete('/Users/:id', async (req, reply) => {
    await change(req, 'scim.user.delete', () => users.remove(req.scim, idOf(req), ifMatchOf(req)));
    return reply.code(204).send();
  });

  // Anything else under /scim/v2 (the SPA's catch-all route must not answer it).
  app.all('/*', async () => {
    throw notFound('No such SCIM endpoint.');
  });

  // --- Groups ---
  app.post('/Groups', async (req, reply) => {
    const created = await change(req, 'scim.group.create', () => groups.create(req.scim, req.body));
    return sendScim(reply.header('location', created.meta.location), 201, created);
  });
  app.get('/Groups', async (req, reply) => sendScim(reply, 200, await groups.list(req.scim, listQuery(req))));
  app.get('/Groups/:id', async (req, reply) => sendScim(reply, 200, await groups.get(req.scim, idOf(req), listQuery(req))));
  app.put('/Groups/:id', async (req, reply) =>
    sendScim(reply, 200, await change(req, 'scim.group.replace', () => groups.replace(req.scim, idOf(req), req.body, ifMatchOf(req)))),
  );
  app.patch('/Groups/:id', async (req, reply) =>
    sendScim(reply, 200, await change(req, 'scim.group.update', () => groups.patch(req.scim, idOf(req), req.body, ifMatchOf(req)))),
  );
  app.delete('/Groups/:id', async (req, reply) => {
    await change(req, 'scim.group.delete', () => groups.remove(req.scim, idOf(req), ifMatchOf(req)));
    return reply.code(204).send();
  });
}

/** PROVISIONING=off or jit: `/scim/v2` answers a SCIM 404 (never the SPA). */
export async function scimDisabledRoutes(app: FastifyInstance): Promise<void> {
  const off = async (_request: FastifyRequest, reply: FastifyReply) =>
    sendScim(reply, 404, scimErrorBody(notFound('SCIM provisioning is switched off (PROVISIONING).')));
  app.all('/', off);
  app.all('/*', off);
}
