/**
 * SCIM error responses (RFC 7644 §3.12): `{ schemas, status, scimType?, detail }` with the status as
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

export function scimErrorBody(err: ScimError) {
  return {
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(err.status),
    ...(err.scimType ? { scimType: err.scimType } : {}),
    detail: err.detail,
  };
}
