import { badRequest } from './scim-errors.js';
import { normaliseAttr } from './scim-filter.js';
import { isObject } from './scim-input.js';

/** Representation helpers shared by Users and Groups: list responses, `attributes`/`excludedAttributes`, paging. */

export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const DEFAULT_COUNT = 100;
export const MAX_COUNT = 500;

type Json = Record<string, unknown>;

const ALWAYS = new Set(['id', 'schemas']);

function names(list: string | undefined): string[] {
  if (!list) return [];
  return list
    .split(',')
    .map((s) => normaliseAttr(s.trim()))
    .filter(Boolean)
    .map((s) => s.toLowerCase());
}

/** Applies `attributes` (only these, plus id and schemas) or else `excludedAttributes` to a representation. */
export function project(resource: Json, query: { attributes?: string; excludedAttributes?: string }): Json {
  const include = names(query.attributes);
  const exclude = names(query.excludedAttributes);
  if (include.length > 0) {
    const out: Json = {};
    for (const [k, v] of Object.entries(resource)) {
      const lower = k.toLowerCase();
      if (ALWAYS.has(lower) || include.includes(lower)) {
        out[k] = v;
        continue;
      }
      const subs = include.filter((n) => n.startsWith(`${lower}.`)).map((n) => n.slice(lower.length + 1));
      if (subs.length > 0 && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).filter(([sk]) => subs.includes(sk.toLowerCase())));
      else if (subs.length > 0 && Array.isArray(v))
        out[k] = v.map((item) =>
          isObject(item) ? Object.fromEntries(Object.entries(item).filter(([sk]) => subs.includes(sk.toLowerCase()))) : item,
        );
    }
    return out;
  }
  if (exclude.length > 0) {
    const out: Json = {};
    for (const [k, v] of Object.entries(resource)) {
      const lower = k.toLowerCase();
      if (!ALWAYS.has(lower) && exclude.includes(lower)) continue;
      const subs = exclude.filter((n) => n.startsWith(`${lower}.`)).map((n) => n.slice(lower.length + 1));
      out[k] =
        subs.length > 0 && isObject(v) ? Object.fromEntries(Object.entries(v).filter(([sk]) => !subs.includes(sk.toLowerCase()))) : v;
    }
    return out;
  }
  return resource;
}

export interface ListQuery {
  filter?: string;
  startIndex?: string;
  count?: string;
  attributes?: string;
  excludedAttributes?: string;
}

/** `startIndex` (1-based, default 1) and `count` (default 100, at most 500); out-of-range values are clamped as RFC 7644, section 3.4.2.4 says. */
export function paging(query: ListQuery): { startIndex: number; count: number } {
  const parse = (v: string | undefined, name: string) => {
    if (v === undefined || v === '') return undefined;
    if (!/^-?\d{1,9}$/.test(v)) throw badRequest('invalidValue', `"${name}" must be an integer.`);
    return Number(v);
  };
  const start = parse(query.startIndex, 'startIndex');
  const count = parse(query.count, 'count');
  return { startIndex: Math.max(1, start ?? 1), count: Math.min(MAX_COUNT, Math.max(0, count ?? DEFAULT_COUNT)) };
}

export function listResponse(all: readonly Json[], p: { startIndex: number; count: number }, query: ListQuery) {
  const page = all.slice(p.startIndex - 1, p.startIndex - 1 + p.count);
  return {
    schemas: [LIST_SCHEMA],
    totalResults: all.length,
    startIndex: p.startIndex,
    itemsPerPage: page.length,
    Resources: page.map((r) => project(r, query)),
  };
}
