import { z } from 'zod';
import { adminPageLimitSchema } from './admin-api.js';
import { activityEventSchema } from './mfa-api.js';
import { userText } from './user-text.js';

/** Contract of the audit log (`/api/admin/audit/...`, Solution Administrators): search it and verify its hash chain. */

export const adminAuditQuerySchema = z
  .object({
    actor: userText({ max: 254 }).optional(),
    target: userText({ max: 254 }).optional(),
    action: z
      .string()
      .trim()
      .max(100)
      .regex(/^[a-z0-9_.*]+$/, 'must be a dotted action such as device.delete or admin.*')
      .optional(),
    outcome: z.enum(['success', 'failure'], { message: 'must be success or failure' }).optional(),
    from: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
    to: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
    cursor: z
      .string()
      .regex(/^[1-9][0-9]{0,15}$/, 'must be the nextCursor of a previous page')
      .optional(),
    limit: adminPageLimitSchema,
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { message: 'must not be before from', path: ['to'] });
export type AdminAuditQuery = z.infer<typeof adminAuditQuerySchema>;

export const adminAuditEventSchema = activityEventSchema.extend({ clientAddress: z.string().nullable() });
export const adminAuditResponseSchema = z.object({ events: z.array(adminAuditEventSchema), nextCursor: z.string().nullable() });
export type AdminAuditResponse = z.infer<typeof adminAuditResponseSchema>;

export const adminAuditVerifyResponseSchema = z.union([
  z.object({ ok: z.literal(true), count: z.number().int().nonnegative() }),
  z.object({ ok: z.literal(false), brokenAt: z.number().int().nonnegative(), id: z.string().nullable(), reason: z.string() }),
]);
export type AdminAuditVerifyResponse = z.infer<typeof adminAuditVerifyResponseSchema>;

/** How a verification run walks the chain: all of it, or only what is new since the last checkpoint. */
export const auditVerificationModeSchema = z.enum(['full', 'incremental'], { message: 'must be full or incremental' });
export const adminAuditVerifyQuerySchema = z.object({ mode: auditVerificationModeSchema.default('full') });
export const adminAuditVerificationStartSchema = z.object({ mode: auditVerificationModeSchema.default('full') });
export const adminAuditVerificationParamsSchema = z.object({ id: z.uuid({ message: 'must be the id of a verification run' }) });
/** A verification run of the hash chain and its progress (checked of total events). */
export const adminAuditVerificationSchema = z.object({
  id: z.string(),
  mode: auditVerificationModeSchema,
  state: z.enum(['running', 'done', 'failed']),
  checked: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Set when done: the chain's verdict. Failed runs (interrupted, internal error) have none. */
  result: adminAuditVerifyResponseSchema.nullable(),
});
export type AdminAuditVerification = z.infer<typeof adminAuditVerificationSchema>;
