import { z } from 'zod';
import { errorBodySchema } from '@mfa-portal/shared';

/** Error answers every self-service route may give (the bearer token, the account status, the verification budget). */
export const COMMON_ERRORS = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
} as const;
/** ... and those of a change. */
export const CHANGE_ERRORS = { ...COMMON_ERRORS, 409: errorBodySchema, 410: errorBodySchema, 422: errorBodySchema } as const;
/** Error answers of the administration routes. */
export const ADMIN_ERRORS = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
} as const;
export const ME_TAGS = ['me'];
export const ADMIN_TAGS = ['admin'];
export const SECURITY = [{ bearerAuth: [] }];
export const noContent = z.null().describe('No content');
