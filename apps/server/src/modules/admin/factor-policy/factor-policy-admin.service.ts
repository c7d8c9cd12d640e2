import {
  FACTOR_PREVIEW_LIST_MAX,
  type FactorPolicyGlobal,
  type FactorPolicyOverride,
  type FactorPolicyPerson,
  type FactorPolicyPreview,
  type FactorPolicyResponse,
  type FactorPolicyRule,
  type PortalRole,
} from '@mfa-portal/shared';
import { AppError } from '../../../lib/errors.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { RequestContext } from '../../common/request-context.js';
import type { FactorPolicyRepository, StoredOverride, StoredRule } from '../../factor-policy/factor-policy.repository.js';
import { kindWords } from '../../factor-policy/factor-policy.service.js';
import {
  inOrder,
  OPEN_POLICY,
  resolveFactorPolicy,
  splitHolding,
  usableKindsOf,
  type NamedOverride,
} from '../../factor-policy/resolve-policy.js';
import { adminAudited } from '../common/admin-audited.js';
import type { HoldingsReader } from './factor-holdings.js';

/**
 * The Solution Administrator's side of the factor policy: read it, change the global policy, and
 * create, change or remove a directory group's override; and the preview, "what would this do to these
 * people?". A change that would leave anyone holding a factor they may use now with none they may use
 * is refused (409 `factor_policy.would_leave_without_factor`, naming them), and nothing is stored. Every
 * change and its audit event are one transaction; the check runs inside it, on the directory as it is.
 */

export type PolicyScope = { kind: 'global' } | { kind: 'group'; groupId: string };

const iso = (d: Date) => d.toISOString();

/** A rule as stored: lists as sets in the recommended order, maxima only where set. */
function normalised(rule: FactorPolicyRule): FactorPolicyRule {
  return {
    enrol: inOrder(rule.enrol),
    use: inOrder(rule.use),
    requirePhishingResistant: rule.requirePhishingResistant,
    maxPerKind: Object.fromEntries(Object.entries(rule.maxPerKind).filter(([, n]) => n !== undefined)),
  };
}

const plain = (r: FactorPolicyRule): FactorPolicyRule => ({
  enrol: r.enrol,
  use: r.use,
  requirePhishingResistant: r.requirePhishingResistant,
  maxPerKind: r.maxPerKind,
});

const toGlobal = (r: StoredRule | null): FactorPolicyGlobal =>
  r ? { ...plain(r), updatedBy: r.updatedBy, updatedAt: iso(r.updatedAt) } : { ...OPEN_POLICY, updatedBy: null, updatedAt: null };

const toOverride = (o: StoredOverride): FactorPolicyOverride => ({
  ...plain(o),
  updatedBy: o.updatedBy,
  updatedAt: iso(o.updatedAt),
  group: { id: o.groupId, name: o.groupName, memberCount: o.memberCount },
});

/** Bad input: a rule with which nobody could use any factor at all. */
function assertSomethingUsable(rule: FactorPolicyRule, field: string): void {
  if (usableKindsOf(rule).length > 0) return;
  throw new AppError({
    code: 'factor_policy.no_usable_kind',
    details: {
      field: `${field}use`,
      reason: rule.requirePhishingResistant
        ? 'requiring a phishing-resistant factor leaves only passkeys and security keys, and this policy lets neither be used'
        : 'this policy lets no kind of factor be used',
    },
  });
}

const sameRule = (a: ReturnType<typeof resolveFactorPolicy>, b: ReturnType<typeof resolveFactorPolicy>) =>
  JSON.stringify([inOrder(a.enrol), inOrder(a.use), a.requirePhishingResistant, a.maxPerKind]) ===
  JSON.stringify([inOrder(b.enrol), inOrder(b.use), b.requirePhishingResistant, b.maxPerKind]);

export function createFactorPolicyAdminService(deps: {
  repo: FactorPolicyRepository;
  audit: AuditService;
  holdings: HoldingsReader;
  now?: () => Date;
}) {
  const { repo, audit, holdings } = deps;
  const clock = deps.now ?? (() => new Date());

  /**
   * What `policy` (null: no override) for `scope` would do: every person whose policy would change,
   * weighed by the factors they hold now.
   */
  async function simulate(scope: PolicyScope, policy: FactorPolicyRule | null): Promise<FactorPolicyPreview> {
    const [stored, overrides] = await Promise.all([repo.global(), repo.overrides()]);
    const globalBefore: FactorPolicyRule = stored ?? OPEN_POLICY;
    const globalAfter = scope.kind === 'global' && policy ? policy : globalBefore;
    let overridesAfter: NamedOverride[] = overrides;
    if (scope.kind === 'group') {
      const name = overrides.find((o) => o.groupId === scope.groupId)?.groupName ?? (await repo.groupName(scope.groupId)) ?? '';
      overridesAfter = overrides.filter((o) => o.groupId !== scope.groupId);
      if (policy) overridesAfter.push({ ...policy, groupId: scope.groupId, groupName: name });
    }
    const groupIds = [...new Set([...overrides, ...overridesAfter].map((o) => o.groupId))];
    // A group's override reaches its members only; the global policy reaches everyone.
    const people = await repo.people(groupIds, scope.kind === 'group' ? scope.groupId : undefined);
    const of = (list: readonly NamedOverride[], groups: readonly string[]) => list.filter((o) => groups.includes(o.groupId));
    const changed = people.flatMap((p) => {
      const before = resolveFactorPolicy(globalBefore, of(overrides, p.groups));
      const after = resolveFactorPolicy(globalAfter, of(overridesAfter, p.groups));
      return sameRule(before, after) ? [] : [{ ...p, before, after }];
    });
    const held = await holdings(
      changed.map((p) => p.upn),
      clock(),
    );
    const lose: FactorPolicyPerson[] = [];
    const disallowed: FactorPolicyPerson[] = [];
    for (const p of changed) {
      const holding = held.get(p.upn) ?? {};
      const now = splitHolding(p.before, holding);
      const then = splitHolding(p.after, holding);
      const person = { upn: p.upn, displayName: p.displayName, kinds: then.disallowed };
      if (now.usable.length > 0 && then.usable.length === 0) lose.push(person);
      else if (then.usable.length > 0 && then.disallowed.length > 0) disallowed.push(person);
    }
    return {
      affected: changed.length,
      loseEveryFactor: { count: lose.length, people: lose.slice(0, FACTOR_PREVIEW_LIST_MAX) },
      holdDisallowed: { count: disallowed.length, people: disallowed.slice(0, FACTOR_PREVIEW_LIST_MAX) },
      refused: lose.length > 0,
    };
  }

  /** Refuses the change when someone would be left with no factor they may use (inside its transaction). */
  async function assertNobodyLeftWithout(scope: PolicyScope, policy: FactorPolicyRule | null): Promise<FactorPolicyPreview> {
    const preview = await simulate(scope, policy);
    if (!preview.refused) return preview;
    const { count, people } = preview.loseEveryFactor;
    const named = people.map((p) => p.upn);
    throw new AppError({
      code: 'factor_policy.would_leave_without_factor',
      details: {
        reason: `${count} ${count === 1 ? 'person' : 'people'} would be left with no factor they may use to sign in (they hold only ${kindWords(
          new Set(people.flatMap((p) => p.kinds)),
        )}). Let them add an allowed one first, or allow what they hold.`,
        count,
        people: named,
      },
    });
  }

  async function knownGroup(groupId: string, field: string): Promise<string> {
    const name = await repo.groupName(groupId);
    if (name === null) {
      throw new AppError({ code: 'factor_policy.group_unknown', details: { field, reason: `no directory group has the id ${groupId}` } });
    }
    return name;
  }

  async function overrideOrThrow(groupId: string): Promise<StoredOverride> {
    const found = await repo.override(groupId);
    if (!found) throw new AppError({ code: 'factor_policy.override_not_found', details: { field: 'groupId' } });
    return found;
  }

  /** A rule as the audit log keeps it: the maxima as a list (a details key may not name codes, and one kind is bypass codes). */
  const summary = (r: FactorPolicyRule) => {
    const n = normalised(r);
    return { ...plain(n), maxPerKind: Object.entries(n.maxPerKind).map(([kind, max]) => ({ kind, max })) };
  };

  return {
    async get(): Promise<FactorPolicyResponse> {
      const [global, overrides] = await Promise.all([repo.global(), repo.overrides()]);
      return { global: toGlobal(global), overrides: overrides.map(toOverride) };
    },

    async preview(scope: PolicyScope, policy: FactorPolicyRule | null): Promise<FactorPolicyPreview> {
      if (scope.kind === 'global' && policy === null) {
        throw new AppError({ code: 'request.invalid', details: { field: 'policy', reason: 'the global policy cannot be removed' } });
      }
      if (policy) assertSomethingUsable(policy, 'policy.');
      if (scope.kind === 'group') await knownGroup(scope.groupId, 'scope.groupId');
      return simulate(scope, policy ? normalised(policy) : null);
    },

    async setGlobal(ctx: RequestContext, role: PortalRole, input: FactorPolicyRule): Promise<FactorPolicyGlobal> {
      assertSomethingUsable(input, '');
      const rule = normalised(input);
      const previous = toGlobal(await repo.global());
      return adminAudited(
        audit,
        ctx,
        role,
        'admin.factor_policy.update',
        null,
        {},
        { policy: summary(rule), previous: summary(previous) },
        async () => {
          await assertNobodyLeftWithout({ kind: 'global' }, rule);
          await repo.saveGlobal(rule, ctx.upn.toLowerCase(), clock());
          return toGlobal(await repo.global());
        },
      );
    },

    async createOverride(ctx: RequestContext, role: PortalRole, groupId: string, input: FactorPolicyRule): Promise<FactorPolicyOverride> {
      assertSomethingUsable(input, '');
      const rule = normalised(input);
      return adminAudited(
        audit,
        ctx,
        role,
        'admin.factor_policy.group_create',
        null,
        {},
        { groupId, policy: summary(rule) },
        async () => {
          await knownGroup(groupId, 'groupId');
          await assertNobodyLeftWithout({ kind: 'group', groupId }, rule);
          if (!(await repo.insertOverride(groupId, rule, ctx.upn.toLowerCase(), clock()))) {
            throw new AppError({
              code: 'factor_policy.override_exists',
              details: { field: 'groupId', reason: 'this group has its own policy already' },
            });
          }
          return toOverride(await overrideOrThrow(groupId));
        },
        (o) => ({ group: o.group.name }),
      );
    },

    async updateOverride(ctx: RequestContext, role: PortalRole, groupId: string, input: FactorPolicyRule): Promise<FactorPolicyOverride> {
      assertSomethingUsable(input, '');
      const rule = normalised(input);
      let previous: ReturnType<typeof summary> | null = null;
      return adminAudited(
        audit,
        ctx,
        role,
        'admin.factor_policy.group_update',
        null,
        {},
        { groupId, policy: summary(rule) },
        async () => {
          previous = summary(await overrideOrThrow(groupId));
          await assertNobodyLeftWithout({ kind: 'group', groupId }, rule);
          await repo.updateOverride(groupId, rule, ctx.upn.toLowerCase(), clock());
          return toOverride(await overrideOrThrow(groupId));
        },
        (o) => ({ group: o.group.name, previous }),
      );
    },

    async deleteOverride(ctx: RequestContext, role: PortalRole, groupId: string): Promise<FactorPolicyOverride> {
      return adminAudited(
        audit,
        ctx,
        role,
        'admin.factor_policy.group_delete',
        null,
        {},
        { groupId },
        async () => {
          const previous = await overrideOrThrow(groupId);
          // Its members go back to the global policy (or their other groups' overrides): that may leave someone without.
          await assertNobodyLeftWithout({ kind: 'group', groupId }, null);
          await repo.deleteOverride(groupId);
          return toOverride(previous);
        },
        (o) => ({ group: o.group.name, previous: summary(o) }),
      );
    },
  };
}

export type FactorPolicyAdminService = ReturnType<typeof createFactorPolicyAdminService>;
