import { z } from 'zod';
import { serviceDeskLinkProblem, serviceDeskTextProblem } from '@mfa-portal/shared';

/** Field types the environment schema (config-env.ts) and its parts share. */

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

export const int = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(min, `must be between ${min} and ${max}`)
    .max(max, `must be between ${min} and ${max}`)
    .default(fallback);

// Duo's keys and host as the Duo Admin Panel shows them (a secret key is never echoed back).
export const duoIntegrationKey = z
  .string()
  .trim()
  .regex(/^[A-Z0-9]{20}$/, 'must be the 20-character integration key shown by the Duo Admin Panel (DI…)');
export const duoSecretKey = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{40}$/, 'must be the 40-character secret key shown by the Duo Admin Panel');
export const duoHost = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/,
    'must be the API hostname, e.g. api-xxxxxxxx.duosecurity.com (without https://)',
  );
export const duoBaseUrl = z.url({ message: 'must be an absolute http(s) URL' }).regex(/^https?:\/\//, 'must be an absolute http(s) URL');

// How staff reach the service desk: text shown as written, and an optional tel:, mailto: or https: link.
export const serviceDeskText = z.string().superRefine((value, ctx) => {
  const problem = serviceDeskTextProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
export const serviceDeskLink = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = serviceDeskLinkProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
