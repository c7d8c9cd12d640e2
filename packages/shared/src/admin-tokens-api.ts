import { z } from 'zod';
import { adminActionBodySchema, adminPageLimitSchema, adminReasonSchema, adminTicketSchema } from './admin-api.js';
import { userText } from './user-text.js';

/** Contract of the hardware-token inventory (`/api/admin/tokens/...`, Solution Administrators): list, unassign, retire, import. */

export const TOKEN_STATUSES = ['available', 'assigned', 'retired'] as const;
export const adminTokensQuerySchema = z.object({
  q: userText({ max: 100 }).optional(),
  status: z.enum(TOKEN_STATUSES, { message: 'must be available, assigned or retired' }).optional(),
  limit: adminPageLimitSchema,
});
export const adminTokenSchema = z.object({
  serial: z.string(),
  tokenType: z.string(),
  status: z.enum(TOKEN_STATUSES),
  assignedTo: z.string().nullable(),
  assignedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  /** How many devices the holder has, this token's included (null: nobody holds it); 1 means unassigning leaves them none. */
  holderDevices: z.number().int().nonnegative().nullable(),
});
export type AdminToken = z.infer<typeof adminTokenSchema>;
export const adminTokensResponseSchema = z.object({ tokens: z.array(adminTokenSchema) });
export type AdminTokenStatus = (typeof TOKEN_STATUSES)[number];
export const adminTokenParamsSchema = z.object({
  serial: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9-]+$/, 'must contain only letters, digits and dashes'),
});
/** Body of POST /api/admin/tokens/:serial/unassign: the holder's only device needs `confirmLastDevice` (409 otherwise). */
export const adminTokenUnassignBodySchema = adminActionBodySchema.extend({
  confirmLastDevice: z.boolean().default(false),
});
export type AdminTokenUnassignBody = z.input<typeof adminTokenUnassignBodySchema>;
/** The largest CSV import (the request body limit is 64 KiB). */
export const IMPORT_CSV_MAX_LENGTH = 64 * 1024;
/** JSON body of POST /api/admin/tokens/import (or send the CSV itself as text/csv). */
export const adminTokenImportBodySchema = z.union([
  z.object({
    csv: userText({ max: IMPORT_CSV_MAX_LENGTH, multiline: true, trim: false }).min(1, 'must not be empty'),
    reason: adminReasonSchema.optional(),
    ticket: adminTicketSchema.optional(),
  }),
  userText({ max: IMPORT_CSV_MAX_LENGTH, multiline: true, trim: false }).min(1, 'must not be empty'),
]);
export const adminTokenImportResponseSchema = z.object({
  imported: z.number().int().nonnegative(),
  refused: z.array(z.object({ line: z.number().int().positive(), serial: z.string().nullable(), reason: z.string() })),
});
export type AdminTokenImportResponse = z.infer<typeof adminTokenImportResponseSchema>;
