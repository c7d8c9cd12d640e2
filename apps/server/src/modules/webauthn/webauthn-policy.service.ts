import type { Kysely } from 'kysely';
import type { WebauthnPolicy, WebauthnPolicyResponse } from '@mfa-portal/shared';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import type { AttestationTrust } from './attestation-trust.js';
import { webauthnRepository } from './webauthn.repository.js';

/**
 * The Solution Administrator's WebAuthn policy: an optional allow-list of authenticator
 * models (AAGUIDs) for new registrations, and whether holders of protected accounts must step up with
 * a passkey or security key (phishing-resistant) rather than a code or a push.
 */
export interface WebauthnPolicyService {
  /**
   * The FIDO metadata new registrations are checked against while the allow-list names models; null:
   * none is configured, and the allow-list only compares what the authenticator says of itself.
   */
  readonly attestationTrust: AttestationTrust | null;
  get(): Promise<WebauthnPolicyResponse>;
  set(actor: AuditActor, policy: WebauthnPolicy, ctx: { requestId: string; clientAddress: string | null }): Promise<WebauthnPolicyResponse>;
  /**
   * Refuses (403 `auth.phishing_resistant_required`, audited) a step-up by `method` when the policy
   * asks protected accounts for WebAuthn and the actor holds one.
   */
  assertStepUpMethod(
    actor: AuditActor,
    method: 'passcode' | 'bypass' | 'push' | 'webauthn',
    ctx: { requestId: string; clientAddress: string | null },
  ): Promise<void>;
}

export function createWebauthnPolicyService(deps: {
  db: Kysely<Database>;
  audit: AuditService;
  isProtected: (roles: readonly string[]) => boolean;
  attestationTrust?: AttestationTrust | null;
  now?: () => Date;
}): WebauthnPolicyService {
  const repo = webauthnRepository(deps.db);
  const clock = deps.now ?? (() => new Date());
  const trust = deps.attestationTrust ?? null;
  const attestation = trust ? 'verified' : 'advisory';
  /** Listed models no metadata describes: while attestation is checked, nobody can register one. */
  const withoutMetadata = (list: readonly string[]) => (trust ? list.filter((a) => !trust.statementFor(a)) : []);

  const service: WebauthnPolicyService = {
    attestationTrust: trust,

    async get() {
      const row = await repo.getPolicy();
      return {
        aaguidAllowList: row ? [...row.aaguid_allow_list] : [],
        requirePhishingResistantForProtected: row?.require_phishing_resistant ?? false,
        updatedBy: row?.updated_by ?? null,
        updatedAt: row?.updated_at ? new Date(row.updated_at).toISOString() : null,
        attestation,
        aaguidsWithoutMetadata: withoutMetadata(row?.aaguid_allow_list ?? []),
      };
    },

    async set(actor, policy, ctx) {
      const before = await service.get();
      const list = [...new Set(policy.aaguidAllowList.map((a) => a.toLowerCase()))];
      // The change and its audit event: one transaction.
      const row = await deps.audit.atomically(async () => {
        const updated = await repo.upsertPolicy({
          aaguid_allow_list: list,
          require_phishing_resistant: policy.requirePhishingResistantForProtected,
          updated_by: actor.upn.toLowerCase(),
          updated_at: clock(),
        });
        await deps.audit.append({
          actor,
          target: null,
          action: 'admin.webauthn_policy.update',
          outcome: 'success',
          requestId: ctx.requestId,
          clientAddress: ctx.clientAddress,
          details: {
            aaguidAllowList: list,
            requirePhishingResistantForProtected: policy.requirePhishingResistantForProtected,
            previous: {
              aaguidAllowList: before.aaguidAllowList,
              requirePhishingResistantForProtected: before.requirePhishingResistantForProtected,
            },
          },
        });
        return updated;
      });
      return {
        aaguidAllowList: [...row.aaguid_allow_list],
        requirePhishingResistantForProtected: row.require_phishing_resistant,
        updatedBy: row.updated_by,
        updatedAt: row.updated_at ? new Date(row.updated_at).toISOString() : null,
        attestation,
        aaguidsWithoutMetadata: withoutMetadata(row.aaguid_allow_list),
      };
    },

    async assertStepUpMethod(actor, method, ctx) {
      if (method === 'webauthn' || !deps.isProtected(actor.roles)) return;
      const policy = await service.get();
      if (!policy.requirePhishingResistantForProtected) return;
      await deps.audit.append({
        actor,
        target: actor.upn.toLowerCase(),
        action: 'step_up',
        outcome: 'failure',
        reason: 'auth.phishing_resistant_required',
        requestId: ctx.requestId,
        clientAddress: ctx.clientAddress,
        details: { method },
      });
      throw new AppError({ code: 'auth.phishing_resistant_required', details: { reason: 'Use your passkey or security key.' } });
    },
  };
  return service;
}
