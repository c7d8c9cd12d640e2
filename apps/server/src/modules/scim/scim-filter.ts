import { badRequest } from './scim-errors.js';
import { isObject } from './scim-input.js';

/**
 * SCIM filters (RFC 7644, section 3.4.2.2): `eq ne co sw ew gt ge lt le pr`, `and`, `or`, `not ( … )`,
 * parentheses, value paths (`emails[type eq "work"]`, also followed by a sub-attribute and a comparison
 * as Entra writes it: `emails[type eq "work"].value eq "…"`). Attribute names compare without regard
 * to case; string values too, except the case-exact `id` and `externalId`. Evaluated against a
 * resource's JSON representation. Values are JSON literals as the RFC says; an unquoted single word
 * (a string or a date some clients send bare) is accepted as the string it spells.
 */

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
export type FilterValue = string | number | boolean | null;

export interface AttrPath {
  /** Dotted attribute, e.g. `userName`, `name.givenName`, `meta.created` (schema URN prefix removed). */
  attr: string;
  filter?: Filter;
  sub?: string;
}

export type Filter =
  | { kind: 'cmp'; path: AttrPath; op: CompareOp; value: FilterValue }
  | { kind: 'pr'; path: AttrPath }
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'not'; expr: Filter }
  | { kind: 'valuePath'; path: AttrPath };

export const MAX_FILTER_LENGTH = 2048;
const OPS = new Set<CompareOp>(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);
/** Words that join or negate expressions: never taken for an unquoted value. */
const KEYWORDS = new Set(['and', 'or', 'not']);
const ATTR = /^(urn:[A-Za-z0-9.:_-]+:)?[A-Za-z$][\w$-]*(\.[A-Za-z$][\w$-]*)*$/;
const CORE_URN = /^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i;

type Token = { t: 'word'; v: string } | { t: 'str'; v: string } | { t: '(' | ')' | '[' | ']' };

const invalid = (detail: string) => badRequest('invalidFilter', detail);

function tokenize(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === '(' || c === ')' || c === '[' || c === ']') {
      out.push({ t: c });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      let raw = '"';
      while (j < input.length && input[j] !== '"') {
        if (input[j] === '\\') raw += input[j++];
        raw += input[j++] ?? '';
      }
      if (j >= input.length) throw invalid('The filter has an unterminated string.');
      try {
        out.push({ t: 'str', v: JSON.parse(`${raw}"`) as string });
      } catch {
        throw invalid('The filter has a malformed string.');
      }
      i = j + 1;
    } else {
      let j = i;
      while (j < input.length && !' \t()[]"'.includes(input[j]!)) j++;
      out.push({ t: 'word', v: input.slice(i, j) });
      i = j;
    }
  }
  return out;
}

/** Normalises an attribute path: the core schema URN prefix is dropped (`urn:…:User:userName` → `userName`). */
export function normaliseAttr(attr: string): string {
  return attr.replace(CORE_URN, '');
}

export function parseFilter(input: string): Filter {
  if (input.length > MAX_FILTER_LENGTH) throw invalid(`The filter is longer than ${MAX_FILTER_LENGTH} characters.`);
  const tokens = tokenize(input);
  let pos = 0;
  const peek = () => tokens[pos];
  const isWord = (tok: Token | undefined, w: string): boolean => tok?.t === 'word' && tok.v.toLowerCase() === w;
  const expect = (t: ')' | ']') => {
    if (peek()?.t !== t) throw invalid(`The filter is missing "${t}".`);
    pos++;
  };

  function parseOr(): Filter {
    let left = parseAnd();
    while (isWord(peek(), 'or')) {
      pos++;
      left = { kind: 'or', left, right: parseAnd() };
    }
    return left;
  }
  function parseAnd(): Filter {
    let left = parseUnary();
    while (isWord(peek(), 'and')) {
      pos++;
      left = { kind: 'and', left, right: parseUnary() };
    }
    return left;
  }
  function parseUnary(): Filter {
    const tok = peek();
    if (isWord(tok, 'not') && tokens[pos + 1]?.t === '(') {
      pos += 2;
      const expr = parseOr();
      expect(')');
      return { kind: 'not', expr };
    }
    if (tok?.t === '(') {
      pos++;
      const expr = parseOr();
      expect(')');
      return expr;
    }
    return parseAttrExpr();
  }
  function parseAttrExpr(): Filter {
    const tok = peek();
    if (tok?.t !== 'word' || !ATTR.test(tok.v))
      throw invalid('The filter must compare an attribute, e.g. userName eq "someone@example.org".');
    pos++;
    const path: AttrPath = { attr: normaliseAttr(tok.v) };
    if (peek()?.t === '[') {
      pos++;
      path.filter = parseOr();
      expect(']');
      const next = peek();
      if (next?.t === 'word' && next.v.startsWith('.')) {
        if (!/^\.[A-Za-z$][\w$-]*$/.test(next.v)) throw invalid('The filter has a malformed sub-attribute.');
        path.sub = next.v.slice(1);
        pos++;
      } else {
        return { kind: 'valuePath', path };
      }
    }
    const opTok = peek();
    if (opTok?.t !== 'word') throw invalid('The filter is missing an operator after the attribute.');
    const op = opTok.v.toLowerCase();
    pos++;
    if (op === 'pr') return { kind: 'pr', path };
    if (!OPS.has(op as CompareOp)) throw invalid(`"${opTok.v}" is not a filter operator.`);
    const valueTok = peek();
    pos++;
    let value: FilterValue;
    if (valueTok?.t === 'str') value = valueTok.v;
    else if (valueTok?.t === 'word') {
      const w = valueTok.v.toLowerCase();
      if (w === 'true' || w === 'false') value = w === 'true';
      else if (w === 'null') value = null;
      else if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(valueTok.v)) value = Number(valueTok.v);
      // Some clients leave simple strings and dates unquoted (`userName sw O`, `meta.created gt
      // 2015-10-10T14:38:21Z`). A lone word cannot be mistaken for anything else, so it is read as
      // the string it spells; a logical operator or a sub-attribute in that place still is an error.
      else if (!KEYWORDS.has(w) && !valueTok.v.startsWith('.')) value = valueTok.v;
      else throw invalid(`"${valueTok.v}" is not a filter value (strings go in double quotes).`);
    } else throw invalid('The filter is missing a value after the operator.');
    return { kind: 'cmp', path, op: op as CompareOp, value };
  }

  if (tokens.length === 0) throw invalid('The filter is empty.');
  const filter = parseOr();
  if (pos !== tokens.length) throw invalid('The filter has unexpected text after a complete expression.');
  return filter;
}

// --- evaluation ---

const CASE_EXACT = new Set(['id', 'externalid']);
const DATE_ATTRS = new Set(['meta.created', 'meta.lastmodified']);

function member(obj: unknown, name: string): unknown {
  if (!isObject(obj)) return undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(obj)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** Every value at `segments` below `value` (arrays flattened at each step). */
function walk(value: unknown, segments: readonly string[]): unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v) => walk(v, segments));
  if (segments.length === 0) return [value];
  return walk(member(value, segments[0]!), segments.slice(1));
}

function valuesAt(resource: unknown, path: AttrPath): unknown[] {
  const segments = path.attr.split('.');
  let values = walk(resource, segments);
  if (path.filter) {
    const f = path.filter;
    values = values.filter((v) => matches(f, v));
  }
  if (path.sub) values = walk(values, [path.sub]);
  return values;
}

function compare(actual: unknown, op: CompareOp, expected: FilterValue, attrKey: string): boolean {
  if (expected === null) return op === 'eq' ? actual === null : op === 'ne' ? actual !== null : false;
  if (typeof expected === 'boolean' || typeof actual === 'boolean') {
    if (op === 'eq') return actual === expected;
    if (op === 'ne') return actual !== expected;
    return false;
  }
  if (typeof expected === 'number' && typeof actual === 'number') {
    switch (op) {
      case 'eq':
        return actual === expected;
      case 'ne':
        return actual !== expected;
      case 'gt':
        return actual > expected;
      case 'ge':
        return actual >= expected;
      case 'lt':
        return actual < expected;
      case 'le':
        return actual <= expected;
      default:
        return false;
    }
  }
  if (typeof actual !== 'string' || typeof expected !== 'string') return false;
  if (DATE_ATTRS.has(attrKey) && ['gt', 'ge', 'lt', 'le', 'eq', 'ne'].includes(op)) {
    const a = Date.parse(actual);
    const e = Date.parse(expected);
    if (Number.isNaN(e)) throw invalid(`"${expected}" is not a date and time.`);
    return compare(a, op, e, '');
  }
  const exact = CASE_EXACT.has(attrKey.split('.').pop() ?? '');
  const a = exact ? actual : actual.toLowerCase();
  const e = exact ? expected : expected.toLowerCase();
  switch (op) {
    case 'eq':
      return a === e;
    case 'ne':
      return a !== e;
    case 'co':
      return a.includes(e);
    case 'sw':
      return a.startsWith(e);
    case 'ew':
      return a.endsWith(e);
    case 'gt':
      return a > e;
    case 'ge':
      return a >= e;
    case 'lt':
      return a < e;
    case 'le':
      return a <= e;
  }
}

/** Whether `resource` (a SCIM JSON object, or an element of a multi-valued attribute) matches. */
export function matches(filter: Filter, resource: unknown): boolean {
  switch (filter.kind) {
    case 'and':
      return matches(filter.left, resource) && matches(filter.right, resource);
    case 'or':
      return matches(filter.left, resource) || matches(filter.right, resource);
    case 'not':
      return !matches(filter.expr, resource);
    case 'pr':
      return valuesAt(resource, filter.path).some((v) => v !== '' && !(Array.isArray(v) && v.length === 0));
    case 'valuePath':
      return valuesAt(resource, filter.path).length > 0;
    case 'cmp': {
      const key = (filter.path.sub ? `${filter.path.attr}.${filter.path.sub}` : filter.path.attr).toLowerCase();
      const values = valuesAt(resource, filter.path);
      if (filter.op === 'ne') return !values.some((v) => compare(v, 'eq', filter.value, key));
      return values.some((v) => compare(v, filter.op, filter.value, key));
    }
  }
}

/** `attr eq "value"` on one of `attrs` (for an indexed look-up), else null. */
export function simpleEquality(filter: Filter, attrs: readonly string[]): { attr: string; value: string } | null {
  if (filter.kind !== 'cmp' || filter.op !== 'eq' || typeof filter.value !== 'string' || filter.path.filter || filter.path.sub) return null;
  const attr = attrs.find((a) => a.toLowerCase() === filter.path.attr.toLowerCase());
  return attr ? { attr, value: filter.value } : null;
}
