import { badRequest } from './scim-errors.js';
import { matches, normaliseAttr, parseFilter, type Filter } from './scim-filter.js';
import { getCi, isObject, keyCi } from './scim-input.js';

/**
 * PATCH (RFC 7644, section 3.5.2) applied to a resource's JSON representation, in the shapes Entra's
 * provisioning service sends: `op` in any letter case (`Replace`, `Add`), path-less value objects
 * with dotted keys (`{"name.givenName": "…"}`), value-filter paths (`emails[type eq "work"].value`),
 * `remove` of members with or without a value. The caller then validates the patched JSON exactly as
 * a PUT, so an unknown attribute is dropped and a bad value refused before anything is stored.
 */

export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const MAX_OPERATIONS = 1000;

export interface PatchOp {
  op: 'add' | 'replace' | 'remove';
  path?: string;
  value?: unknown;
}

interface ParsedPath {
  attr: string;
  filter?: Filter;
  sub?: string;
}

type Json = Record<string, unknown>;

export function parsePatchBody(body: unknown): PatchOp[] {
  if (!isObject(body)) throw badRequest('invalidSyntax', 'The request body must be a PatchOp object.');
  const schemas = getCi(body, 'schemas');
  if (
    schemas !== undefined &&
    !(Array.isArray(schemas) && schemas.some((s) => typeof s === 'string' && s.toLowerCase() === PATCH_SCHEMA.toLowerCase()))
  )
    throw badRequest('invalidSyntax', `"schemas" must contain ${PATCH_SCHEMA}.`);
  const ops = getCi(body, 'Operations');
  if (!Array.isArray(ops) || ops.length === 0) throw badRequest('invalidSyntax', '"Operations" must be a non-empty array.');
  if (ops.length > MAX_OPERATIONS) throw badRequest('tooMany', `At most ${MAX_OPERATIONS} operations per request.`);
  return ops.map((raw) => {
    if (!isObject(raw)) throw badRequest('invalidSyntax', 'Each operation must be an object.');
    const op = getCi(raw, 'op');
    const name = typeof op === 'string' ? op.toLowerCase() : '';
    if (name !== 'add' && name !== 'replace' && name !== 'remove')
      throw badRequest('invalidSyntax', '"op" must be add, replace or remove.');
    const path = getCi(raw, 'path');
    if (path !== undefined && path !== null && (typeof path !== 'string' || path.trim() === ''))
      throw badRequest('invalidPath', '"path" must be a non-empty string.');
    return { op: name, ...(typeof path === 'string' ? { path: path.trim() } : {}), value: getCi(raw, 'value') };
  });
}

const PATH = /^([^[\]]+?)(?:\[(.+)\])?(?:\.([A-Za-z$][\w$-]*))?$/;

/** null: an attribute of another schema (an extension the portal does not keep): ignored. */
function parsePath(raw: string): ParsedPath | null {
  const path = normaliseAttr(raw);
  if (/^urn:/i.test(path)) return null;
  const m = PATH.exec(path);
  if (!m) throw badRequest('invalidPath', `"${raw}" is not a valid attribute path.`);
  const [, attrPart, filterText, sub] = m;
  const attr = attrPart!;
  if (!/^[A-Za-z$][\w$-]*(\.[A-Za-z$][\w$-]*)?$/.test(attr)) throw badRequest('invalidPath', `"${raw}" is not a valid attribute path.`);
  let filter: Filter | undefined;
  if (filterText !== undefined) {
    try {
      filter = parseFilter(filterText);
    } catch {
      throw badRequest('invalidPath', `"${raw}" has an invalid value filter.`);
    }
  }
  if (!filterText && attr.includes('.')) {
    const [a, s] = attr.split('.') as [string, string];
    if (sub) throw badRequest('invalidPath', `"${raw}" is not a valid attribute path.`);
    return { attr: a, sub: s };
  }
  return { attr, ...(filter ? { filter } : {}), ...(sub ? { sub } : {}) };
}

function setCi(obj: Json, name: string, value: unknown): void {
  obj[keyCi(obj, name) ?? name] = value;
}
function deleteCi(obj: Json, name: string): void {
  const k = keyCi(obj, name);
  if (k !== undefined) delete obj[k];
}

const asArray = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const valueOf = (v: unknown) => (isObject(v) ? getCi(v, 'value') : v);
const sameValue = (a: unknown, b: unknown) => {
  const x = valueOf(a);
  const y = valueOf(b);
  return typeof x === 'string' && typeof y === 'string' ? x.toLowerCase() === y.toLowerCase() : x === y;
};

/** `type eq "work"` (possibly `and`-ed): the element a filtered add/replace creates when none matches. */
function elementFromFilter(filter: Filter): Json | null {
  if (filter.kind === 'cmp' && filter.op === 'eq' && !filter.path.filter && !filter.path.sub && !filter.path.attr.includes('.'))
    return { [filter.path.attr]: filter.value };
  if (filter.kind === 'and') {
    const l = elementFromFilter(filter.left);
    const r = elementFromFilter(filter.right);
    return l && r ? { ...l, ...r } : null;
  }
  return null;
}

function applyOne(resource: Json, op: PatchOp['op'], path: ParsedPath, value: unknown, multiValued: ReadonlySet<string>): void {
  const isMulti = multiValued.has(path.attr.toLowerCase());
  const current = getCi(resource, path.attr);

  if (path.filter) {
    if (!isMulti) throw badRequest('invalidPath', `"${path.attr}" is not multi-valued: it takes no value filter.`);
    const items = asArray(current).map((x) => (isObject(x) ? { ...x } : x));
    const hits = items.filter((x) => matches(path.filter!, x));
    if (op === 'remove') {
      const kept = path.sub ? items : items.filter((x) => !hits.includes(x));
      if (path.sub) for (const h of hits) if (isObject(h)) deleteCi(h, path.sub);
      setCi(resource, path.attr, kept);
      return;
    }
    if (hits.length === 0) {
      const created = elementFromFilter(path.filter);
      if (!created) throw badRequest('noTarget', `No value of "${path.attr}" matches the filter.`);
      items.push(path.sub ? { ...created, [path.sub]: value } : isObject(value) ? { ...created, ...value } : created);
    } else {
      for (const h of hits) {
        if (!isObject(h)) continue;
        if (path.sub) setCi(h, path.sub, value);
        else if (isObject(value)) Object.assign(h, value);
      }
    }
    setCi(resource, path.attr, items);
    return;
  }

  if (path.sub) {
    const target = isObject(current) ? { ...current } : {};
    if (op === 'remove') deleteCi(target, path.sub);
    else setCi(target, path.sub, value);
    setCi(resource, path.attr, target);
    return;
  }

  if (op === 'remove') {
    if (isMulti && value !== undefined && value !== null) {
      const drop = asArray(value);
      setCi(
        resource,
        path.attr,
        asArray(current).filter((x) => !drop.some((d) => sameValue(d, x))),
      );
    } else {
      deleteCi(resource, path.attr);
    }
    return;
  }
  if (isMulti) {
    const incoming = asArray(value);
    if (op === 'replace') setCi(resource, path.attr, incoming);
    else setCi(resource, path.attr, [...asArray(current).filter((x) => !incoming.some((n) => sameValue(n, x))), ...incoming]);
    return;
  }
  if (isObject(value) && isObject(current)) setCi(resource, path.attr, { ...current, ...value });
  else setCi(resource, path.attr, value);
}

/**
 * Applies `ops` to a copy of `resource` and returns it. `multiValued` names (lower case) the
 * resource's multi-valued attributes (emails, roles, members…).
 */
export function applyPatch(resource: Json, ops: readonly PatchOp[], multiValued: ReadonlySet<string>): Json {
  const out: Json = structuredClone(resource);
  for (const { op, path, value } of ops) {
    if (path === undefined) {
      if (op === 'remove') throw badRequest('noTarget', '"remove" needs a "path".');
      if (!isObject(value)) throw badRequest('invalidValue', `"${op}" without a path needs an object value.`);
      for (const [key, v] of Object.entries(value)) {
        const parsed = parsePath(key);
        if (parsed) applyOne(out, op, parsed, v, multiValued);
      }
      continue;
    }
    const parsed = parsePath(path);
    if (!parsed) continue;
    if (op !== 'remove' && value === undefined) throw badRequest('invalidValue', `"${op}" of "${path}" needs a value.`);
    applyOne(out, op, parsed, value, multiValued);
  }
  return out;
}
