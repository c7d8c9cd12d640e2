/**
 * SCIM error responses (RFC 7644, section 3.12): `{ schemas, status, scimType?, detail }` with the status as
 * a string, sent as `application/scim+json`. Thrown by the SCIM services and answered by the SCIM
 * plugin's own error handler (the rest of the portal keeps `{ code, message }`).
 */

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export class ScimError extends Error {
  override readonly name = 'ScimError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export const badRequest = (scimType: ScimType, detail: string) => new ScimError(400, detail, scimType);
export const notFound = (detail: string) => new ScimError(404, detail);
export const conflict = (detail: string) => new ScimError(409, detail, 'uniqueness');
export const forbidden = (detail: string) => new ScimError(403, detail);

/** A resource's version (weak ETag): its last change, to the millisecond. */
export const versionOf = (updatedAt: Date) => `W/"${updatedAt.getTime()}"`;

/**
 * `If-Match` of a write, checked against the resource as read under its lock: a client that read an
 * older version is told so (412) instead of overwriting a change it never saw. Absent: no condition.
 */
export function assertIfMatch(ifMatch: string | undefined, updatedAt: Date): void {
  if (ifMatch === undefined || ifMatch.trim() === '') return;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const tags = ifMatch.split(',').map(opaque);
  if (tags.includes('*') || tags.includes(opaque(versionOf(updatedAt)))) return;
  throw new ScimError(412, 'The resource has changed since this version was read (If-Match); read it again.');
}

export function scimErrorBody(err: ScimError) {
  return {
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(err.status),
    ...(err.scimType ? { scimType: err.scimType } : {}),
    detail: err.detail,
  };
}
