import { z } from 'zod';
import { userText } from './user-text.js';

/** Admin API of the SCIM bearer tokens (Solution Administrator): created (shown once), listed, revoked. */

export const SCIM_TOKEN_NAME_MAX = 64;

export const scimTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ScimToken = z.infer<typeof scimTokenSchema>;

export const scimTokensResponseSchema = z.object({
  tokens: z.array(scimTokenSchema),
  /** SCIM_TOKEN is set in the environment (a token that cannot be revoked here). */
  environmentToken: z.boolean(),
  /** The base URL to give the directory (Entra's "Tenant URL"). */
  endpoint: z.string(),
});
export type ScimTokensResponse = z.infer<typeof scimTokensResponseSchema>;

export const createScimTokenRequestSchema = z.object({
  name: userText({ max: SCIM_TOKEN_NAME_MAX, min: 1 })
    // Printable, no "@" (an actor in the audit log is a token name or a UPN, never both).
    .regex(/^[\p{L}\p{N} ._()-]+$/u, 'letters, digits, spaces and . _ ( ) - only'),
});
export type CreateScimTokenRequest = z.infer<typeof createScimTokenRequestSchema>;

export const createScimTokenResponseSchema = z.object({
  token: scimTokenSchema,
  /** Shown once; only its hash is stored. */
  secret: z.string(),
});
export type CreateScimTokenResponse = z.infer<typeof createScimTokenResponseSchema>;
