import type { AdminToken, AdminTokenImportResponse, PortalRole } from '@mfa-portal/shared';
import type { Policy } from '../../../auth/policy.js';
import type { HardwareTokenStatus } from '../../../db/schema.js';
import { AppError } from '../../../lib/errors.js';
import type { InventoryToken, TokenInventory as Inventory } from '../../../mfa/inventory.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { RequestContext } from '../../common/request-context.js';
import type { DirectoryRepository } from '../../directory/directory.repository.js';
import { adminAudited } from '../common/admin-audited.js';
import { actorOf, type AdminAuthorization, type Justification } from '../common/authorization.js';

/**
 * The hardware-token inventory (`/api/admin/tokens`, Solution Administrators): list, import from CSV,
 * take a token from its holder, retire one. Only the builtin provider keeps an inventory here; with
 * another provider these answer 409 (it is kept at the provider).
 */

export interface TokensServiceDeps {
  audit: AuditService;
  directory: DirectoryRepository;
  policy: Policy;
  authorization: AdminAuthorization;
  /** The builtin provider's token inventory; null with another provider. */
  inventory: Inventory | null;
  now?: () => Date;
}

const toAdminToken = (t: InventoryToken): AdminToken => ({
  serial: t.serial,
  tokenType: t.tokenType,
  status: t.status,
  assignedTo: t.assignedTo,
  assignedAt: t.assignedAt ? t.assignedAt.toISOString() : null,
  createdAt: t.createdAt.toISOString(),
  holderDevices: t.holderDevices,
});

export function createTokensService(deps: TokensServiceDeps) {
  const { audit, directory, policy, authorization } = deps;
  const clock = deps.now ?? (() => new Date());

  function requireInventory(): Inventory {
    if (!deps.inventory)
      throw new AppError({
        code: 'mfa.not_supported_by_provider',
        details: { reason: 'The token inventory is kept at the MFA provider.' },
      });
    return deps.inventory;
  }

  return {
    async listTokens(query: { q?: string; status?: HardwareTokenStatus; limit: number }) {
      return { tokens: (await requireInventory().list(query)).map(toAdminToken) };
    },

    async importTokens(ctx: RequestContext, role: PortalRole, csv: string, j: Justification): Promise<AdminTokenImportResponse> {
      return adminAudited(
        audit,
        ctx,
        role,
        'admin.inventory.import',
        null,
        j,
        {},
        async () => {
          const report = await requireInventory().importCsv(csv);
          if (report.refused.some((r) => r.reason === 'header_missing'))
            throw new AppError({
              code: 'token.import_invalid',
              details: { field: 'csv', reason: 'The first line must be the header serial,seed.' },
            });
          return report;
        },
        (r) => ({ imported: r.imported, refused: r.refused.map((x) => ({ line: x.line, serial: x.serial, why: x.reason })) }),
      );
    },

    async unassignToken(ctx: RequestContext, role: PortalRole, serial: string, body: Justification & { confirmLastDevice?: boolean }) {
      const { confirmLastDevice = false, ...j } = body;
      const inventory = requireInventory();
      const holder = (await inventory.find(serial))?.assignedTo ?? null;
      // Taking a token from its holder removes their device: the rules of acting on that user apply too
      // (never one's own, a protected holder only by a Solution Administrator).
      if (holder) {
        const target = await directory.find(holder);
        const decision = policy.onUser(actorOf(ctx), { upn: holder, roles: target?.roles ?? null }, 'admin.user.delete_device');
        if (!decision.allow) throw await authorization.denied(ctx, 'admin.inventory.unassign', holder.toLowerCase(), decision, j);
      }
      const result = await adminAudited(audit, ctx, role, 'admin.inventory.unassign', holder, j, { serial, confirmLastDevice }, () =>
        inventory.unassign(serial, { at: clock(), allowLast: confirmLastDevice }),
      );
      return toAdminToken(result.token);
    },

    async retireToken(ctx: RequestContext, role: PortalRole, serial: string, j: Justification) {
      const inventory = requireInventory();
      return toAdminToken(
        await adminAudited(audit, ctx, role, 'admin.inventory.retire', null, j, { serial }, () => inventory.retire(serial, clock())),
      );
    },
  };
}

export type TokensService = ReturnType<typeof createTokensService>;
