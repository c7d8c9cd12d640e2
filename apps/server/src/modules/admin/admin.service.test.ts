import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_ROLE_NAMES, ROLE_HELPDESK, ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import { createPolicy } from '../../auth/policy.js';
import { AppError } from '../../lib/errors.js';
import type { Inventory } from '../../mfa/builtin/inventory.js';
import { MfaError, type MfaProvider } from '../../mfa/port.js';
import type { VerificationService } from '../../mfa/verification.js';
import type { AuditEntry, AuditService } from '../audit/audit.service.js';
import { createAdminService } from './admin.service.js';
import type { DirectoryRepository, DirectoryUser } from './directory.repository.js';

const HD = { upn: 'hd@example.com', roles: [ROLE_HELPDESK], requestId: 'r1', clientAddress: '127.0.0.1' };
const SA = { upn: 'sa@example.com', roles: [ROLE_SOLUTION_ADMIN], requestId: 'r2', clientAddress: null };

function setup(
  opts: { directory?: Record<string, string[] | null>; mfa?: Partial<MfaProvider>; inventory?: Partial<Inventory> | null } = {},
) {
  const entries: AuditEntry[] = [];
  const audit = { append: vi.fn(async (e: AuditEntry) => void entries.push(e)) } as unknown as AuditService;
  const known = opts.directory ?? { 'bob@example.com': [], 'boss@example.com': [ROLE_SOLUTION_ADMIN] };
  const user = (upn: string): DirectoryUser | null =>
    upn in known ? { upn, displayName: upn, email: upn, roles: known[upn] ?? null, lastSeenAt: null } : null;
  const directory = { find: async (upn: string) => user(upn), findMany: async () => new Map() } as unknown as DirectoryRepository;
  const mfa = { name: 'builtin', ...opts.mfa } as unknown as MfaProvider;
  const service = createAdminService({
    mfa,
    audit,
    verification: {} as VerificationService,
    directory,
    policy: createPolicy(DEFAULT_ROLE_NAMES),
    inventory: opts.inventory === null ? null : ((opts.inventory ?? {}) as Inventory),
    portalUrl: 'https://portal.example.com/',
  });
  return { service, entries, mfa };
}

describe('admin service', () => {
  it('audits a denial with the role used, the policy reason and the ticket, and answers 403', async () => {
    const { service, entries } = setup();
    const err = await service.authorizeUser(HD, 'boss@example.com', 'admin.user.unlock', { ticket: 'INC-9' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ statusCode: 403, code: 'auth.forbidden', details: { reason: 'protected_account' } });
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'admin.user.unlock',
        target: 'boss@example.com',
        outcome: 'failure',
        reason: 'auth.forbidden',
        details: { role: 'helpdesk', denyReason: 'protected_account', ticket: 'INC-9' },
      }),
    ]);
  });

  it('treats an account whose roles were never seen as protected (fail closed)', async () => {
    const { service } = setup();
    await expect(service.authorizeUser(HD, 'stranger@example.com', 'admin.user.read')).rejects.toMatchObject({
      details: { reason: 'protection_unknown' },
    });
    await expect(service.authorizeUser(SA, 'stranger@example.com', 'admin.user.read')).resolves.toEqual({ role: 'solution_admin' });
  });

  it('audits an action with the role, reason and ticket, and a provider refusal as a failure', async () => {
    const unlockUser = vi.fn(async () => ({ status: 'active' as const, statusReason: null, lockedUntil: null, deviceCount: 1 }));
    const { service, entries } = setup({ mfa: { unlockUser } });
    await service.unlock(HD, 'helpdesk', 'bob@example.com', { reason: 'Called in', ticket: 'INC-1' });
    expect(entries[0]).toMatchObject({
      outcome: 'success',
      details: { role: 'helpdesk', reason: 'Called in', ticket: 'INC-1', status: 'active' },
    });

    unlockUser.mockRejectedValueOnce(new MfaError('not_provisioned'));
    await expect(service.unlock(HD, 'helpdesk', 'bob@example.com', { reason: 'x', ticket: 'y' })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(entries[1]).toMatchObject({ outcome: 'failure', reason: 'mfa.user_not_provisioned' });
  });

  it('answers 409 for inventory actions when the provider keeps the inventory', async () => {
    const { service } = setup({ inventory: null });
    await expect(service.listTokens({ limit: 10 })).rejects.toMatchObject({ statusCode: 409, code: 'mfa.not_supported_by_provider' });
  });

  it("refuses to unassign the administrator's own token", async () => {
    const unassign = vi.fn();
    const { service, entries } = setup({ inventory: { find: async () => ({ assignedTo: 'sa@example.com' }) as never, unassign } });
    await expect(service.unassignToken(SA, 'solution_admin', 'D100-1', {})).rejects.toMatchObject({
      details: { reason: 'own_account_via_admin' },
    });
    expect(unassign).not.toHaveBeenCalled();
    expect(entries[0]).toMatchObject({ action: 'admin.inventory.unassign', outcome: 'failure' });
  });
});
