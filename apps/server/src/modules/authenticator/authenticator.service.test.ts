import { describe, expect, it, vi } from 'vitest';
import type { MfaProvider } from '../../mfa/port.js';
import type { SelfServiceDeps } from '../common/self-service.js';
import { createAuthenticatorService } from './authenticator.service.js';

const ctx = { upn: 'alice@example.com', roles: [], requestId: 'r', clientAddress: null, session: 's', amr: ['pwd', 'mfa'] };

function deps(mfa: Partial<MfaProvider>) {
  const audit = { append: vi.fn(async () => ({})), atomically: async <T>(fn: () => Promise<T>) => fn(), prepare: (e: unknown) => e };
  return {
    mfa: { name: 'duo', capabilities: { authenticatorApp: false }, ...mfa } as unknown as MfaProvider,
    audit,
    stepUp: { maxAgeSeconds: 300, isFresh: async () => true },
    verification: {},
    pushes: {},
    totpIssuer: 'Test',
    publicUrl: 'https://portal.example/',
  } as unknown as SelfServiceDeps & { publicUrl: string };
}

describe('activating Portal Authenticator', () => {
  it('is refused with 409 mfa.not_supported_by_provider where the provider has its own phone app (Duo), and audited', async () => {
    const d = deps({});
    await expect(createAuthenticatorService(d).startActivation(ctx)).rejects.toMatchObject({ code: 'not_supported' });
    expect(d.audit.append).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'device.activation', outcome: 'failure', reason: 'mfa.not_supported_by_provider' }),
    );
    await expect(createAuthenticatorService(d).activationState(ctx, 'x')).rejects.toMatchObject({ code: 'not_supported' });
  });

  it('builds the link under the public URL with the token in the fragment, and its QR code', async () => {
    const startActivation = vi.fn(async () => ({ activationId: 'a1', token: 'T'.repeat(43), expiresAt: new Date('2030-01-01T00:00:00Z') }));
    const d = deps({
      name: 'builtin',
      capabilities: { authenticatorApp: true } as MfaProvider['capabilities'],
      authenticatorApp: { startActivation } as unknown as MfaProvider['authenticatorApp'],
      getAccount: async () => ({ status: 'active', statusReason: null, lockedUntil: null, deviceCount: 1 }),
    });
    const a = await createAuthenticatorService(d).startActivation(ctx);
    expect(a.activationUrl).toBe(`https://portal.example/authenticator/#activate=${'T'.repeat(43)}`);
    expect(a.qrSvg).toMatch(/^<svg/);
    expect(startActivation).toHaveBeenCalledWith('alice@example.com', expect.objectContaining({ allowWhenDevicesExist: true }));
  });
});
