import { z } from 'zod';
import { PORTAL_AUTHENTICATOR_APP } from './authenticator-api.js';
import type { Device } from './profile.js';

/**
 * The factor policy: which kinds of factor people may enrol and use, whether a phishing-resistant one is
 * required, and the most of each a person may hold. A global policy applies to everyone; a directory
 * group may have an override, which applies to its members instead (a person in several overridden
 * groups gets the strictest combination of them). Solution Administrators manage it under
 * `/api/admin/factor-policy`; each person reads what applies to them at `GET /api/me/factor-policy`.
 */

/** The kinds of factor, in the order the portal recommends them (phishing-resistant first, bypass codes last). */
export const FACTOR_KINDS = [
  'passkey',
  'security_key',
  'portal_authenticator',
  'phone',
  'authenticator_app',
  'hardware_token',
  'bypass_codes',
] as const;
export type FactorKind = (typeof FACTOR_KINDS)[number];

/** The kinds that cannot be tricked by a fake website: a WebAuthn credential is bound to the portal's origin. */
export const PHISHING_RESISTANT_KINDS: readonly FactorKind[] = ['passkey', 'security_key'];

/** The most of one kind a policy may allow a person to hold (bypass codes: live codes). */
export const FACTOR_MAX_PER_KIND = 100;

/** The kind of factor a device is (a phone activated in the portal's own app is a portal authenticator). */
export function factorKindOf(device: Pick<Device, 'kind' | 'app'>): Exclude<FactorKind, 'bypass_codes'> {
  switch (device.kind) {
    case 'authenticator':
      return 'authenticator_app';
    case 'phone':
      return device.app === PORTAL_AUTHENTICATOR_APP ? 'portal_authenticator' : 'phone';
    default:
      return device.kind;
  }
}

const kindList = (what: string) =>
  z
    .array(z.enum(FACTOR_KINDS, { message: `must name kinds of factor (${FACTOR_KINDS.join(', ')})` }), {
      message: `must be a list of the kinds of factor that may be ${what}`,
    })
    .max(FACTOR_KINDS.length * 2, `must list at most ${FACTOR_KINDS.length * 2} kinds`);

const maximum = z
  .number({ message: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1 (leave it out for no limit; to allow none, leave the kind out of "enrol")')
  .max(FACTOR_MAX_PER_KIND, `must be at most ${FACTOR_MAX_PER_KIND}`);

/** The most a person may hold of each kind; a kind left out has no limit of its own. */
export const factorMaxPerKindSchema = z
  .object({
    passkey: maximum.optional(),
    security_key: maximum.optional(),
    portal_authenticator: maximum.optional(),
    phone: maximum.optional(),
    authenticator_app: maximum.optional(),
    hardware_token: maximum.optional(),
    bypass_codes: maximum.optional(),
  })
  .strict();
export type FactorMaxPerKind = z.infer<typeof factorMaxPerKindSchema>;

/** A policy as an administrator writes it (the global one, or a group's override). Lists are sets. */
export const factorPolicyRuleSchema = z.object({
  /** Kinds a person may add (a kind that may not be used is never offered, whatever this says). */
  enrol: kindList('enrolled'),
  /** Kinds a person may use to sign in and to confirm it is them (step-up). */
  use: kindList('used'),
  /** Only a passkey or security key may be used. */
  requirePhishingResistant: z.boolean({ message: 'must be true or false' }),
  maxPerKind: factorMaxPerKindSchema.default({}),
});
export type FactorPolicyRule = z.output<typeof factorPolicyRuleSchema>;
export type FactorPolicyRuleInput = z.input<typeof factorPolicyRuleSchema>;

export const factorPolicyGroupParamsSchema = z.object({ groupId: z.uuid('must be a directory group id') });

/** Body of POST /api/admin/factor-policy/groups: a directory group's override. */
export const factorPolicyOverrideBodySchema = factorPolicyRuleSchema.extend({
  groupId: z.uuid('must be a directory group id'),
});
export type FactorPolicyOverrideBody = z.input<typeof factorPolicyOverrideBodySchema>;

const stamp = { updatedBy: z.string().nullable(), updatedAt: z.iso.datetime().nullable() };

export const factorPolicyGlobalSchema = factorPolicyRuleSchema.extend(stamp);
export type FactorPolicyGlobal = z.infer<typeof factorPolicyGlobalSchema>;

export const factorPolicyOverrideSchema = factorPolicyRuleSchema.extend({
  ...stamp,
  group: z.object({ id: z.string(), name: z.string(), memberCount: z.number().int() }),
});
export type FactorPolicyOverride = z.infer<typeof factorPolicyOverrideSchema>;

/** 200 body of GET /api/admin/factor-policy. */
export const factorPolicyResponseSchema = z.object({
  global: factorPolicyGlobalSchema,
  overrides: z.array(factorPolicyOverrideSchema),
});
export type FactorPolicyResponse = z.infer<typeof factorPolicyResponseSchema>;

/** Body of POST /api/admin/factor-policy/preview: the change to try (a null `policy` removes a group's override). */
export const factorPolicyPreviewBodySchema = z.object({
  scope: z.discriminatedUnion(
    'kind',
    [z.object({ kind: z.literal('global') }), z.object({ kind: z.literal('group'), groupId: z.uuid('must be a directory group id') })],
    { message: 'must be {"kind": "global"} or {"kind": "group", "groupId": ...}' },
  ),
  policy: factorPolicyRuleSchema.nullable(),
});
export type FactorPolicyPreviewBody = z.input<typeof factorPolicyPreviewBodySchema>;

/** Most people each list of a preview (or a refusal) names; the counts are always complete. */
export const FACTOR_PREVIEW_LIST_MAX = 100;

export const factorPolicyPersonSchema = z.object({
  upn: z.string(),
  displayName: z.string(),
  /** The kinds they hold that they could no longer use. */
  kinds: z.array(z.enum(FACTOR_KINDS)),
});
export type FactorPolicyPerson = z.infer<typeof factorPolicyPersonSchema>;

/** 200 body of the preview: what the change would do to the people it reaches. */
export const factorPolicyPreviewSchema = z.object({
  /** People whose policy would change. */
  affected: z.number().int(),
  /** Of them, those who hold a factor they may use now and would hold none they may use. */
  loseEveryFactor: z.object({ count: z.number().int(), people: z.array(factorPolicyPersonSchema) }),
  /** Of them, those who would still hold a factor they may use, and also some they could no longer use. */
  holdDisallowed: z.object({ count: z.number().int(), people: z.array(factorPolicyPersonSchema) }),
  /** Whether saving it would be refused (someone would lose every factor). */
  refused: z.boolean(),
});
export type FactorPolicyPreview = z.infer<typeof factorPolicyPreviewSchema>;

/** Why a kind is not offered on "Add a device". */
export const FACTOR_UNAVAILABLE_REASONS = [
  /** The person's policy does not let them add it (or use it, so it is not offered). */
  'not_allowed',
  /** Only phishing-resistant kinds may be used. */
  'phishing_resistant_required',
  /** They hold as many as the policy allows. */
  'limit_reached',
] as const;
export type FactorUnavailableReason = (typeof FACTOR_UNAVAILABLE_REASONS)[number];

/** 200 body of GET /api/me/factor-policy: what the caller's policy lets them add and use now. */
export const myFactorPolicySchema = z.object({
  /** Kinds they may add now (allowed, usable, below the limit), in the recommended order. */
  enrol: z.array(z.enum(FACTOR_KINDS)),
  /** Kinds they may use to sign in and to confirm it is them. */
  use: z.array(z.enum(FACTOR_KINDS)),
  requirePhishingResistant: z.boolean(),
  maxPerKind: factorMaxPerKindSchema,
  /** Each kind they may not add now, and why. */
  unavailable: z.array(z.object({ kind: z.enum(FACTOR_KINDS), reason: z.enum(FACTOR_UNAVAILABLE_REASONS) })),
  /** Where the policy comes from: the organisation's, or that of their directory groups (named). */
  source: z.object({ kind: z.enum(['global', 'groups']), groups: z.array(z.object({ id: z.string(), name: z.string() })) }),
  /** Their devices that they may no longer use (kept, shown as such, never deleted by the policy). */
  disallowedDevices: z.array(z.string()),
  /** Whether they hold at least one factor they may use. */
  holdsUsable: z.boolean(),
});
export type MyFactorPolicy = z.infer<typeof myFactorPolicySchema>;
