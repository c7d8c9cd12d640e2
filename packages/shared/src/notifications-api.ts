import { z } from 'zod';

// --- security notifications: the outbox as administrators see it ---

export const notificationStateSchema = z.enum(['pending', 'sent', 'failed'], { message: 'must be pending, sent or failed' });

export const notificationOutboxQuerySchema = z.object({
  state: notificationStateSchema.optional(),
  limit: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(1).max(200).default(50),
});

export const notificationOutboxStatusSchema = z.object({
  /** SMTP_URL is set: messages are queued and sent. */
  enabled: z.boolean(),
  counts: z.object({ pending: z.number().int(), sent: z.number().int(), failed: z.number().int() }),
  /** The latest messages, newest first: what and to whom, never their text. */
  messages: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      targetUpn: z.string().nullable(),
      toSecurityContact: z.boolean(),
      state: notificationStateSchema,
      attempts: z.number().int(),
      createdAt: z.string(),
      nextAttemptAt: z.string().nullable(),
      sentAt: z.string().nullable(),
      lastError: z.string().nullable(),
    }),
  ),
});
export type NotificationOutboxStatus = z.infer<typeof notificationOutboxStatusSchema>;

// --- "This wasn't me" on an activity event ---

export const activityReportParamsSchema = z.object({
  id: z.string().regex(/^[1-9][0-9]{0,15}$/, 'must be the id of an activity event'),
});

export const activityReportBodySchema = z
  .object({
    signOutEverywhere: z.boolean().default(false),
    revokeBypassCodes: z.boolean().default(false),
    lockAccount: z.boolean().default(false),
  })
  .strict();
export type ActivityReportBody = z.infer<typeof activityReportBodySchema>;

export const activityReportResponseSchema = z.object({
  reported: z.literal(true),
  /** The security contact is told (SECURITY_CONTACT_EMAIL and SMTP_URL set). */
  securityContactNotified: z.boolean(),
  signedOutEverywhere: z.boolean(),
  bypassCodesRevoked: z.number().int(),
  locked: z.boolean(),
});
export type ActivityReportResponse = z.infer<typeof activityReportResponseSchema>;
