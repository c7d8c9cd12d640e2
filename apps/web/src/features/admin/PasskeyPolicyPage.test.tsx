import '../../lib/test/setup';
import { beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { WebauthnPolicyResponse } from '@mfa-portal/shared';
import { json } from '../../lib/test/fake-api';
import { renderPortal } from '../../test/render-portal';
import { adminProfile } from './test-fixtures';

beforeAll(async () => {
  // antd's TextArea (the allow-list) watches its size, which jsdom cannot: a do-nothing observer stands in.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  await import('./AdminArea');
});

const YUBIKEY_5 = 'cb69481e-8ff7-4039-93ec-0a2729a154a8';
const policy = (over: Partial<WebauthnPolicyResponse> = {}): WebauthnPolicyResponse => ({
  aaguidAllowList: [YUBIKEY_5],
  requirePhishingResistantForProtected: false,
  updatedBy: null,
  updatedAt: null,
  attestation: 'advisory',
  aaguidsWithoutMetadata: [],
  ...over,
});

const open = (body: WebauthnPolicyResponse) =>
  renderPortal({
    path: '/admin/passkeys',
    profile: adminProfile('solution_admin'),
    api: (a) => a.on('GET', '/api/admin/webauthn/policy', () => json(body)),
  });

describe('the passkey policy screen', () => {
  it('says plainly that the allow-list is advisory when the server cannot verify models', async () => {
    await open(policy());
    expect(await screen.findByText('The list is advisory')).toBeInTheDocument();
    expect(screen.getByText(/cannot verify an authenticator's claim about its model/)).toBeInTheDocument();
    expect(screen.queryByText('Models are verified')).not.toBeInTheDocument();
  });

  it('says models are verified by attestation, and names listed models that no metadata describes', async () => {
    const unknown = '11111111-2222-4333-8444-555555555555';
    await open(policy({ attestation: 'verified', aaguidAllowList: [YUBIKEY_5, unknown], aaguidsWithoutMetadata: [unknown] }));
    expect(await screen.findByText('Models are verified')).toBeInTheDocument();
    expect(screen.queryByText('The list is advisory')).not.toBeInTheDocument();
    expect(screen.getByText('Some listed models cannot be registered')).toBeInTheDocument();
    expect(screen.getByText(new RegExp(`does not describe ${unknown}`))).toBeInTheDocument();
  });
});
