import { sql, type Kysely } from 'kysely';
import type { Caller } from '../../auth/token-verifier.js';
import type { ProvisioningConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { toAppError } from '../../mfa/errors.js';
import type { MfaProvider } from '../../mfa/port.js';
import type { AuditService } from '../audit/audit.service.js';

/**
 * Just-in-time provisioning (PROVISIONING=jit or both): the first sign-in with a valid token creates
 * the caller's MFA account (without devices, so the portal leads them to enrol a first device instead
 * of the missing-two-factor page), optionally only for holders of JIT_ALLOWED_ROLES or members of the
 * SCIM groups JIT_ALLOWED_GROUPS. The account, its directory entry and the audit event are one transaction.
 */
export function createJitProvisioning(deps: { db: Kysely<Database>; mfa: MfaProvider; audit: AuditService; config: ProvisioningConfig }) {
  const { db, mfa, audit, config } = deps;
  const enabled = (config.mode === 'jit' || config.mode === 'both') && mfa.lifecycle !== undefined;
  const allowedRoles = config.jitAllowedRoles.map((r) => r.toLowerCase());
  const allowedGroups = config.jitAllowedGroups.map((g) => g.toLowerCase());

  async function allowed(caller: Caller): Promise<boolean> {
    if (allowedRoles.length === 0 && allowedGroups.length === 0) return true;
    if (caller.roles.some((r) => allowedRoles.includes(r.toLowerCase()))) return true;
    if (allowedGroups.length === 0) return false;
    const groups = await db
      .selectFrom('scim_group_member as m')
      .innerJoin('scim_group as g', 'g.id', 'm.group_id')
      .innerJoin('scim_user as u', 'u.id', 'm.user_id')
      .select('g.display_name')
      .where(sql<string>`lower(u.user_name)`, '=', caller.upn.toLowerCase())
      .execute();
    return groups.some((g) => allowedGroups.includes(g.display_name.toLowerCase()));
  }

  return {
    enabled,
    /**
     * Creates the caller's MFA account when it does not exist and they may have one; true when it was
     * created. Meant for a caller whose MFA status is `not_provisioned`.
     */
    async provision(caller: Caller, meta: { requestId: string; clientAddress: string | null }): Promise<boolean> {
      if (!enabled || !mfa.lifecycle || !(await allowed(caller))) return false;
      const lifecycle = mfa.lifecycle;
      const upn = caller.upn.toLowerCase();
      const realName = caller.name || [caller.givenName, caller.familyName].filter(Boolean).join(' ') || upn;
      const now = new Date();
      await db.transaction().execute(async (trx) => {
        // A provider's refusal (Duo: the username taken by another user's alias) is its stable error, not a 500.
        await lifecycle.provision(upn, { email: caller.email || upn, realName }).catch((err: unknown) => {
          throw toAppError(err) ?? err;
        });
        await trx
          .insertInto('directory_user')
          .values({
            upn,
            display_name: realName,
            email: caller.email || upn,
            roles: caller.roles,
            source: 'jit',
            created_at: now,
            updated_at: now,
            provisioned_at: now,
          })
          .onConflict((oc) =>
            oc.column('upn').doUpdateSet({
              source: sql`case when directory_user.source in ('scim', 'demo') then directory_user.source else 'jit' end`,
              updated_at: now,
              // The name may have been seen before (a sign-in without an account): provisioning starts now.
              provisioned_at: sql`coalesce(directory_user.provisioned_at, ${now})`,
            }),
          )
          .execute();
        await audit.append(
          {
            actor: { upn, roles: caller.roles },
            target: upn,
            action: 'provisioning.jit.create',
            outcome: 'success',
            requestId: meta.requestId,
            clientAddress: meta.clientAddress,
            details: { source: 'jit' },
          },
          { now },
        );
      });
      return true;
    },
  };
}

export type JitProvisioning = ReturnType<typeof createJitProvisioning>;
