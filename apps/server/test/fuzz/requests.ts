import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { encodeComponent, hostileJson, hostileString, pathSegment, rawBody, RawObject, toJsonText } from './arbitraries.js';
import type { DocRoute, JsonSchema } from './openapi-routes.js';

/** Generated requests for one documented route (fuzz suite, not a test file). */

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Real values the fuzz can aim at (ids of existing devices, users), so handlers run past their lookups. */
export interface FuzzTargets {
  upns: string[];
  ids: string[];
}

/** A value that satisfies the schema when it can (so the other fields get through), hostile otherwise. */
function plausible(schema: JsonSchema | undefined, targets: FuzzTargets): fc.Arbitrary<unknown> {
  if (!schema) return hostileJson;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => plausible(s, targets)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...targets.ids), fc.uuid());
      return fc.oneof(fc.constantFrom('Caller verified by phone', 'INC-1001', 'My phone', 'D100-0002', '123456'), hostileString);
    case 'integer':
    case 'number':
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, 1_000_000) });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(plausible(schema.items, targets), { maxLength: 4 });
    case 'object':
      return objectFor(schema, targets);
    default:
      return hostileJson;
  }
}

/** An object of the schema's properties, each plausible or hostile, plus stray and prototype keys. */
function objectFor(schema: JsonSchema, targets: FuzzTargets): fc.Arbitrary<RawObject> {
  const props = Object.entries(schema.properties ?? {});
  const field = ([name, s]: [string, JsonSchema]) =>
    fc.option(
      fc.tuple(fc.constant(name), fc.oneof({ weight: 3, arbitrary: plausible(s, targets) }, { weight: 2, arbitrary: hostileJson })),
      {
        freq: 6,
      },
    );
  const extra = fc.array(fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype'), hostileString), hostileJson), {
    maxLength: 2,
  });
  return fc.tuple(fc.tuple(...props.map(field)), extra).map(([fields, stray]) => {
    const entries = (fields as Array<[string, unknown] | null>).filter((e): e is [string, unknown] => e !== null);
    return new RawObject([...entries, ...stray]);
  });
}

function pathArb(route: DocRoute, targets: FuzzTargets): fc.Arbitrary<string> {
  if (!route.pathParams.length) return fc.constant(route.path);
  const segs = route.pathParams.map((p) =>
    pathSegment(
      p === 'upn'
        ? fc.constantFrom(...targets.upns)
        : p === 'serial'
          ? fc.constantFrom('D100-0002', 'D100-0001')
          : fc.constantFrom(...targets.ids, randomUUID()),
    ),
  );
  return fc.tuple(...segs).map((values) => {
    let i = 0;
    return route.path.replace(/\{[^}]+\}/g, () => values[i++]!);
  });
}

function queryArb(route: DocRoute, targets: FuzzTargets): fc.Arbitrary<string> {
  const known = Object.entries(route.query).map(([name, s]) =>
    fc.option(
      fc.tuple(
        fc.constant(name),
        fc.oneof(
          plausible(s, targets).map((v) => String(v)),
          hostileString.filter((v) => v.length < 2000),
        ),
      ),
      { freq: 3 },
    ),
  );
  const stray = fc.array(
    fc.tuple(
      fc.constantFrom('__proto__', 'constructor', 'q', 'x'),
      hostileString.filter((v) => v.length < 2000),
    ),
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...known), stray, fc.boolean()).map(([pairs, extra, raw]) => {
    const all = [...(pairs as Array<[string, string] | null>).filter((p): p is [string, string] => p !== null), ...extra];
    const qs = all.map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`).join('&');
    // Now and then a malformed escape in the query too.
    return (qs || raw ? '?' : '') + qs + (raw ? '&bad=%E0%' : '');
  });
}

const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'text/csv',
  'application/json; charset=utf-16',
  'multipart/form-data',
];

type BodyChoice = { payload?: string; contentType?: string };

function bodyArb(route: DocRoute, targets: FuzzTargets): fc.Arbitrary<BodyChoice> {
  const json = (route.body ? plausible(route.body, targets) : hostileJson).map((v) => ({
    payload: toJsonText(v),
    contentType: 'application/json',
  }));
  return fc.oneof(
    { weight: 6, arbitrary: json },
    { weight: 1, arbitrary: hostileJson.map((v) => ({ payload: toJsonText(v), contentType: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc.tuple(rawBody, fc.constantFrom(...CONTENT_TYPES)).map(([payload, contentType]) => ({ payload, contentType })),
    },
    { weight: 1, arbitrary: fc.constant<BodyChoice>({}) },
  );
}

/** Requests for `route` with the bearer token `token` (none when null). */
export function requestArb(route: DocRoute, targets: FuzzTargets, token: string | null): fc.Arbitrary<FuzzRequest> {
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  return fc
    .record({
      path: pathArb(route, targets),
      query: queryArb(route, targets),
      body: hasBody ? bodyArb(route, targets) : fc.oneof(fc.constant<BodyChoice>({}), bodyArb(route, targets)),
      requestId: fc.option(fc.constantFrom('abc', 'x'.repeat(500), '../../x', 'id with spaces'), { freq: 4 }),
      claims: fc.option(
        hostileString.map((s) => Buffer.from(s).toString('base64url')),
        { freq: 5 },
      ),
    })
    .map(({ path, query, body, requestId, claims }) => ({
      method: route.method,
      url: path + query,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body.contentType ? { 'content-type': body.contentType } : {}),
        ...(requestId ? { 'x-request-id': requestId } : {}),
        ...(claims ? { 'x-client-claims': claims } : {}),
      },
      ...(body.payload !== undefined ? { payload: body.payload } : {}),
    }));
}
