import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { errorBodySchema, userText } from '@mfa-portal/shared';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { localesRepository } from './locales.repository.js';
import { loadTranslations, MISSING_KEYS_LIMITS, NAMESPACE_PATTERN } from './locales.service.js';

const L = MISSING_KEYS_LIMITS;
const lngSchema = z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'must be a language code such as en');
const nsSchema = z.string().regex(NAMESPACE_PATTERN, 'must be a namespace name such as common');

const missingKeysSchema = z
  .record(userText({ max: L.maxKeyLength, min: 1, trim: false }), userText({ max: L.maxFallbackLength, multiline: true, trim: false }))
  .refine((o) => Object.keys(o).length >= 1, 'must name at least one key')
  .refine((o) => Object.keys(o).length <= L.maxKeysPerRequest, `must name at most ${L.maxKeysPerRequest} keys`);

export async function localesRoutes(app: FastifyInstance, opts: { db: Kysely<Database>; localesDir: string }): Promise<void> {
  const translations = loadTranslations(opts.localesDir);
  const repo = localesRepository(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  const lookup = (lng: string, ns: string) => {
    const text = translations.get(lng)?.get(ns);
    if (text === undefined) throw new AppError({ code: 'locale.not_found', details: { field: translations.has(lng) ? 'ns' : 'lng' } });
    return text;
  };

  r.get(
    '/locales/:lng/:file',
    {
      schema: {
        // No 200 schema: the body is the translation file's JSON text, sent as loaded.
        params: z.object({ lng: lngSchema, file: z.string().regex(/^[a-z][a-z0-9-]{0,31}\.json$/, 'must be <namespace>.json') }),
      },
    },
    async (request, reply) => {
      const text = lookup(request.params.lng, request.params.file.slice(0, -'.json'.length));
      return reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(text);
    },
  );

  r.post(
    '/locales/add/:lng/:ns',
    {
      bodyLimit: L.bodyLimitBytes,
      config: { rateLimit: { max: L.perMinutePerAddress, timeWindow: 60_000 } },
      schema: {
        params: z.object({ lng: lngSchema, ns: nsSchema }),
        body: missingKeysSchema,
        response: { 202: z.object({ recorded: z.number().int() }), 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { lng, ns } = request.params;
      lookup(lng, ns); // only languages and namespaces that exist; nothing is ever written to files
      const entries = Object.entries(request.body);
      const { n } = await repo.countMissing();
      const full = Number(n) + entries.length > L.maxStoredKeys;
      await repo.recordMissing(lng, ns, entries, !full);
      if (full) throw new AppError({ code: 'locale.store_full', details: { reason: `At most ${L.maxStoredKeys} missing keys are kept.` } });
      return reply.code(202).send({ recorded: entries.length });
    },
  );
}
