import type { ScimAddress, ScimEmail, ScimRole } from '../../db/schema.js';
import { badRequest, versionOf } from './scim-errors.js';
import { getCi, isObject, toBoolean } from './scim-input.js';
import { USER_SCHEMA } from './scim-resources.js';

/**
 * The SCIM User as the portal keeps it: core attributes that matter to it (userName, externalId,
 * active, displayName, name, emails, addresses, roles) and the write-only password. Every other attribute (a
 * custom or misspelled mapping, an extension) is ignored: never stored, never echoed back.
 */

export const MAX_USERNAME_LENGTH = 256;
export const MAX_PASSWORD_LENGTH = 256;
export const USER_MULTI_VALUED: ReadonlySet<string> = new Set(['emails', 'addresses', 'roles']);

export interface ScimUserInput {
  userName: string;
  externalId: string | null;
  active: boolean;
  displayName: string | null;
  name: { givenName: string | null; familyName: string | null; formatted: string | null } | null;
  emails: ScimEmail[];
  addresses: ScimAddress[];
  /** undefined: the request did not mention roles. */
  roles: ScimRole[] | undefined;
  /** Write-only; undefined: unchanged. */
  password: string | undefined;
}

export interface ScimUserRecord {
  id: string;
  userName: string;
  externalId: string | null;
  active: boolean;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  formattedName: string | null;
  emails: ScimEmail[];
  addresses: ScimAddress[];
  roles: ScimRole[] | null;
  createdAt: Date;
  updatedAt: Date;
  /** When SCIM took over an account it did not create; null: SCIM created it. */
  adoptedAt: Date | null;
}

function optString(obj: Record<string, unknown>, name: string, label = name): string | null {
  const v = getCi(obj, name);
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw badRequest('invalidValue', `Attribute "${label}" must be a string.`);
  return v.trim() === '' ? null : v;
}

function multi(obj: Record<string, unknown>, name: string): Record<string, unknown>[] | undefined {
  const v = getCi(obj, name);
  if (v === undefined) return undefined;
  if (v === null) return [];
  const items = Array.isArray(v) ? v : [v];
  return items.map((item) => {
    if (!isObject(item)) throw badRequest('invalidValue', `Each value of "${name}" must be an object with a "value".`);
    return item;
  });
}

function parseEmail(item: Record<string, unknown>): ScimEmail {
  const value = optString(item, 'value', 'emails.value');
  if (!value) throw badRequest('invalidValue', 'Each e-mail needs a "value".');
  const type = optString(item, 'type', 'emails.type');
  const primary = getCi(item, 'primary');
  const display = optString(item, 'display', 'emails.display');
  return {
    value: value.trim(),
    ...(type ? { type } : {}),
    ...(primary !== undefined && primary !== null ? { primary: toBoolean(primary, 'emails.primary') } : {}),
    ...(display ? { display } : {}),
  };
}

/** Most addresses a user keeps (work, home, other, and a few more than a client should ever send). */
export const MAX_ADDRESSES = 10;
const ADDRESS_PARTS = ['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type'] as const;

function parseAddress(item: Record<string, unknown>): ScimAddress {
  const address: ScimAddress = {};
  for (const part of ADDRESS_PARTS) {
    const v = optString(item, part, `addresses.${part}`);
    if (v !== null) {
      if (v.length > 1024) throw badRequest('invalidValue', `Attribute "addresses.${part}" is longer than 1024 characters.`);
      address[part] = v;
    }
  }
  const primary = getCi(item, 'primary');
  if (primary !== undefined && primary !== null) address.primary = toBoolean(primary, 'addresses.primary');
  return address;
}

/**
 * A role of Entra's `AppRoleAssignmentsComplex`. In PATCH requests Entra sends the value as a JSON
 * string (`{"id":"…","value":"Helpdesk.Administrator","displayName":"…"}`): it is unwrapped.
 */
function parseRole(item: Record<string, unknown>): ScimRole {
  let value = optString(item, 'value', 'roles.value');
  let display = optString(item, 'display', 'roles.display');
  if (!value) throw badRequest('invalidValue', 'Each role needs a "value".');
  if (value.trim().startsWith('{')) {
    try {
      const inner: unknown = JSON.parse(value);
      if (isObject(inner) && typeof inner.value === 'string') {
        value = inner.value;
        if (!display && typeof inner.displayName === 'string') display = inner.displayName;
      }
    } catch {
      /* not JSON: keep the string as the role value */
    }
  }
  const type = optString(item, 'type', 'roles.type');
  const primary = getCi(item, 'primary');
  return {
    value: value.trim(),
    ...(display ? { display } : {}),
    ...(type ? { type } : {}),
    ...(primary !== undefined && primary !== null ? { primary: toBoolean(primary, 'roles.primary') } : {}),
  };
}

/** Validates a User representation (POST, PUT, or the result of a PATCH); throws a SCIM 400. */
export function parseUserInput(body: unknown): ScimUserInput {
  if (!isObject(body)) throw badRequest('invalidSyntax', 'The request body must be a JSON object.');
  const userName = optString(body, 'userName');
  if (!userName) throw badRequest('invalidValue', 'Attribute "userName" is required.');
  if (userName.trim().length > MAX_USERNAME_LENGTH)
    throw badRequest('invalidValue', `"userName" is longer than ${MAX_USERNAME_LENGTH} characters.`);
  const nameRaw = getCi(body, 'name');
  if (nameRaw !== undefined && nameRaw !== null && !isObject(nameRaw))
    throw badRequest('invalidValue', 'Attribute "name" must be an object.');
  const name = isObject(nameRaw)
    ? {
        givenName: optString(nameRaw, 'givenName', 'name.givenName'),
        familyName: optString(nameRaw, 'familyName', 'name.familyName'),
        formatted: optString(nameRaw, 'formatted', 'name.formatted'),
      }
    : null;
  const active = getCi(body, 'active');
  const password = getCi(body, 'password');
  if (
    password !== undefined &&
    password !== null &&
    (typeof password !== 'string' || password.length === 0 || password.length > MAX_PASSWORD_LENGTH)
  )
    throw badRequest('invalidValue', `Attribute "password" must be a string of 1 to ${MAX_PASSWORD_LENGTH} characters.`);
  const roles = multi(body, 'roles');
  return {
    userName: userName.trim(),
    externalId: optString(body, 'externalId'),
    active: active === undefined || active === null ? true : toBoolean(active, 'active'),
    displayName: optString(body, 'displayName'),
    name: name && (name.givenName || name.familyName || name.formatted) ? name : null,
    emails: (multi(body, 'emails') ?? []).map(parseEmail),
    addresses: parseAddresses(multi(body, 'addresses')),
    roles: roles?.map(parseRole),
    password: typeof password === 'string' ? password : undefined,
  };
}

function parseAddresses(items: Record<string, unknown>[] | undefined): ScimAddress[] {
  const addresses = (items ?? []).map(parseAddress).filter((a) => Object.keys(a).some((k) => k !== 'type' && k !== 'primary'));
  if (addresses.length > MAX_ADDRESSES) throw badRequest('invalidValue', `At most ${MAX_ADDRESSES} addresses.`);
  return addresses;
}

/** The address the portal uses: the primary e-mail, else the work one, else the first. */
export function preferredEmail(emails: readonly ScimEmail[]): string {
  return (emails.find((e) => e.primary) ?? emails.find((e) => e.type?.toLowerCase() === 'work') ?? emails[0])?.value ?? '';
}

export function realNameOf(u: Pick<ScimUserRecord, 'displayName' | 'givenName' | 'familyName' | 'formattedName' | 'userName'>): string {
  return u.displayName ?? u.formattedName ?? ([u.givenName, u.familyName].filter(Boolean).join(' ') || u.userName);
}

export function userToJson(
  u: ScimUserRecord,
  baseUrl: string,
  groups: ReadonlyArray<{ id: string; displayName: string }> = [],
): Record<string, unknown> {
  const name =
    u.givenName || u.familyName || u.formattedName
      ? {
          ...(u.givenName ? { givenName: u.givenName } : {}),
          ...(u.familyName ? { familyName: u.familyName } : {}),
          ...(u.formattedName ? { formatted: u.formattedName } : {}),
        }
      : undefined;
  return {
    schemas: [USER_SCHEMA],
    id: u.id,
    ...(u.externalId ? { externalId: u.externalId } : {}),
    userName: u.userName,
    active: u.active,
    ...(u.displayName ? { displayName: u.displayName } : {}),
    ...(name ? { name } : {}),
    ...(u.emails.length > 0 ? { emails: u.emails } : {}),
    ...(u.addresses.length > 0 ? { addresses: u.addresses } : {}),
    ...(u.roles && u.roles.length > 0 ? { roles: u.roles } : {}),
    ...(groups.length > 0
      ? { groups: groups.map((g) => ({ value: g.id, display: g.displayName, $ref: `${baseUrl}Groups/${g.id}` })) }
      : {}),
    meta: {
      resourceType: 'User',
      created: u.createdAt.toISOString(),
      lastModified: u.updatedAt.toISOString(),
      location: `${baseUrl}Users/${u.id}`,
      version: versionOf(u.updatedAt),
    },
  };
}
