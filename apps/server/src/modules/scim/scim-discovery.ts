import { GROUP_SCHEMA, LIST_SCHEMA, MAX_COUNT, USER_SCHEMA } from './scim-resources.js';

/** `/ServiceProviderConfig`, `/ResourceTypes` and `/Schemas` (RFC 7643, sections 5–7): what this service provider supports. */

const SP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RT_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

interface AttrDef {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'dateTime' | 'reference';
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned?: 'always' | 'never' | 'default' | 'request';
  uniqueness?: 'none' | 'server' | 'global';
  subAttributes?: AttrDef[];
  description: string;
}

function attr(a: AttrDef): Record<string, unknown> {
  return {
    name: a.name,
    type: a.type,
    multiValued: a.multiValued ?? false,
    description: a.description,
    required: a.required ?? false,
    caseExact: a.caseExact ?? false,
    mutability: a.mutability ?? 'readWrite',
    returned: a.returned ?? 'default',
    uniqueness: a.uniqueness ?? 'none',
    ...(a.subAttributes ? { subAttributes: a.subAttributes.map(attr) } : {}),
  };
}

const typed = (description: string): AttrDef[] => [
  { name: 'value', type: 'string', description },
  { name: 'display', type: 'string', description: 'A human-readable name.' },
  { name: 'type', type: 'string', description: 'A label, e.g. "work".' },
  { name: 'primary', type: 'boolean', description: 'The preferred value.' },
];

const USER_ATTRIBUTES: AttrDef[] = [
  {
    name: 'userName',
    type: 'string',
    required: true,
    uniqueness: 'server',
    description: "The user's sign-in name (UPN); unique without regard to case.",
  },
  { name: 'externalId', type: 'string', caseExact: true, description: "The directory's identifier of the user." },
  { name: 'active', type: 'boolean', description: 'false disables the MFA account; true re-enables it.' },
  { name: 'displayName', type: 'string', description: 'The name shown to the helpdesk.' },
  {
    name: 'name',
    type: 'complex',
    description: "The user's name.",
    subAttributes: [
      { name: 'givenName', type: 'string', description: 'Given name.' },
      { name: 'familyName', type: 'string', description: 'Family name.' },
      { name: 'formatted', type: 'string', description: 'The full name.' },
    ],
  },
  { name: 'emails', type: 'complex', multiValued: true, description: 'E-mail addresses.', subAttributes: typed('An e-mail address.') },
  {
    name: 'addresses',
    type: 'complex',
    multiValued: true,
    description: 'Postal addresses (kept and returned as sent; the portal does not use them).',
    subAttributes: [
      { name: 'formatted', type: 'string', description: 'The full address, as it would be printed.' },
      { name: 'streetAddress', type: 'string', description: 'Street, house number, P.O. box.' },
      { name: 'locality', type: 'string', description: 'City or locality.' },
      { name: 'region', type: 'string', description: 'State or region.' },
      { name: 'postalCode', type: 'string', description: 'Postal code.' },
      { name: 'country', type: 'string', description: 'Country (ISO 3166-1 alpha-2).' },
      { name: 'type', type: 'string', description: 'A label, e.g. "work".' },
      { name: 'primary', type: 'boolean', description: 'The preferred address.' },
    ],
  },
  {
    name: 'roles',
    type: 'complex',
    multiValued: true,
    description: "App role assignments (Entra's AppRoleAssignmentsComplex): they decide whether the account is protected.",
    subAttributes: typed('The app role value.'),
  },
  {
    name: 'password',
    type: 'string',
    mutability: 'writeOnly',
    returned: 'never',
    description: 'Sets the password at the embedded identity provider (ignored with Entra ID).',
  },
  {
    name: 'groups',
    type: 'complex',
    multiValued: true,
    mutability: 'readOnly',
    description: 'Groups the user belongs to.',
    subAttributes: typed('The id of a group.'),
  },
];

const GROUP_ATTRIBUTES: AttrDef[] = [
  { name: 'displayName', type: 'string', required: true, uniqueness: 'server', description: "The group's name." },
  { name: 'externalId', type: 'string', caseExact: true, description: "The directory's identifier of the group." },
  { name: 'members', type: 'complex', multiValued: true, description: 'Members (users).', subAttributes: typed('The id of a user.') },
];

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SP_SCHEMA],
    documentationUri: `${baseUrl.replace(/scim\/v2\/$/, '')}`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: true },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'A secret token created by a Solution Administrator (or SCIM_TOKEN).',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string) {
  return [
    {
      schemas: [RT_SCHEMA],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'Members of staff',
      schema: USER_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}ResourceTypes/User` },
    },
    {
      schemas: [RT_SCHEMA],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'Groups of staff',
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}ResourceTypes/Group` },
    },
  ];
}

export function schemas(baseUrl: string) {
  return [
    {
      schemas: [SCHEMA_SCHEMA],
      id: USER_SCHEMA,
      name: 'User',
      description: 'User account',
      attributes: USER_ATTRIBUTES.map(attr),
      meta: { resourceType: 'Schema', location: `${baseUrl}Schemas/${USER_SCHEMA}` },
    },
    {
      schemas: [SCHEMA_SCHEMA],
      id: GROUP_SCHEMA,
      name: 'Group',
      description: 'Group',
      attributes: GROUP_ATTRIBUTES.map(attr),
      meta: { resourceType: 'Schema', location: `${baseUrl}Schemas/${GROUP_SCHEMA}` },
    },
  ];
}

export function asList(resources: readonly unknown[]) {
  return { schemas: [LIST_SCHEMA], totalResults: resources.length, startIndex: 1, itemsPerPage: resources.length, Resources: resources };
}
