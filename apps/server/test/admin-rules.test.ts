import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_ROLE_NAMES, ROLE_HELPDESK, ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import { createPolicy } from '../src/auth/policy.js';
import { AppError } from '../src/lib/errors.js';
import type { TokenInventory as Inventory } from '../src/mfa/inventory.js';
import { MfaError, type MfaProvider } from '../src/mfa/port.js';
import { translateError } from '../src/modules/common/error-translator.js';
import type { VerificationService } from '../src/modules/verification/verification.service.js';
import type { AuditEntry, AuditService } from '../src/modules/audit/audit.service.js';
import { createAdminAuthorization } from '../src/modules/admin/common/authorization.js';
import type { IdentityVerifications } from '../src/modules/admin/common/identity-verification.js';
import { createTokensService } from '../src/modules/admin/tokens/tokens.service.js';
import { createUsersService } from '../src/modules/admin/users/users.service.js';
import type { DirectoryRepository, DirectoryUser } from '../src/modules/directory/directory.repository.js';
import type { PushService } from '../src/modules/push/push.service.js';

const HD = {
  upn: 'hd@example.com',
  roles: [ROLE_HELPDESK],
  requestId: 'r1',
  clientAddress: '127.0.0.1',
  session: 'sid:test',
  amr: ['pwd', 'mfa'],
};
const SA = {
  upn: 'sa@example.com',
  roles: [ROLE_SOLUTION_ADMIN],
  requestId: 'r2',
  clientAddress: null,
  session: 'sid:test',
  amr: ['pwd', 'mfa'],
};

function setup(
  opts: { directory?: Record<string, string[] | null>; mfa?: Partial<MfaProvider>; inventory?: Partial<Inventory> | null } = {},
) {
  const entries: AuditEntry[] = [];
  const audit = {
    append: vi.fn(async (e: AuditEntry) => void entries.push(e)),
    // No database here: nothing to roll back.
    atomically: <T>(fn: () => Promise<T>) => fn(),
    prepare: (e: AuditEntry) => e,
  } as unknown as AuditService;
  const known = opts.directory ?? { 'bob@example.com': [], 'boss@example.com': [ROLE_SOLUTION_ADMIN] };
  const user = (upn: string): DirectoryUser | null =>
    upn in known ? { upn, displayName: upn, email: upn, roles: known[upn] ?? null, lastSeenAt: null } : null;
  const directory = { find: async (upn: string) => user(upn), findMany: async () => new Map() } as unknown as DirectoryRepository;
  const mfa = { name: 'builtin', ...opts.mfa } as unknown as MfaProvider;
  const policy = createPolicy(DEFAULT_ROLE_NAMES);
  const authorization = createAdminAuthorization({ audit, directory, policy });
  // The administration rules as the modules share them: authorisation, user actions, the token inventory.
  const service = {
    ...authorization,
    ...createUsersService({
      mfa,
      audit,
      verification: {} as VerificationService,
      directory,
      policy,
      authorization,
      pushes: {} as PushService,
      portalUrl: 'https://portal.example.com/',
      // No action here needs a verification (see the admin API tests for "verify, then issue").
      verifications: {} as IdentityVerifications,
    }),
    ...createTokensService({
      audit,
      directory,
      policy,
      authorization,
      inventory: opts.inventory === null ? null : ((opts.inventory ?? {}) as Inventory),
    }),
  };
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
    await expect(service.authorizeUser(SA, 'stranger@example.com', 'admin.user.read')).resolves.toEqual({
      role: 'solution_admin',
      scope: { kind: 'everyone' },
    });
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
    // The service lets the provider's refusal through; the error handler answers it with the one translator.
    const refused = service.unlock(HD, 'helpdesk', 'bob@example.com', { reason: 'x', ticket: 'y' }).catch((e: unknown) => {
      throw translateError(e) ?? e;
    });
    await expect(refused).rejects.toMatchObject({
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
