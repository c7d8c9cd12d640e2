import { describe, expect, it, vi } from 'vitest';
import type { Device } from '@mfa-portal/shared';
import type { AppError } from '../src/lib/errors.js';
import { MfaError, type MfaAccount, type MfaProvider } from '../src/mfa/port.js';
import type { VerificationResult, VerificationService } from '../src/modules/verification/verification.service.js';
import type { AuditEntry, AuditService } from '../src/modules/audit/audit.service.js';
import type { StepUpService } from '../src/modules/step-up/step-up.service.js';
import { createBypassCodesService } from '../src/modules/bypass-codes/bypass-codes.service.js';
import { createErrorTranslator } from '../src/modules/common/error-translator.js';
import type { RequestContext } from '../src/modules/common/request-context.js';
import { createDevicesService } from '../src/modules/devices/devices.service.js';
import { createPhonesService } from '../src/modules/phones/phones.service.js';
import { createStepUpFlows } from '../src/modules/step-up/step-up-flows.service.js';
import type { PushService } from '../src/modules/push/push.service.js';

/** The self-service rules (devices, phones, bypass codes, step-up) with the provider, step-up, verification and audit faked. */

const NOW = new Date('2030-01-01T12:00:00.000Z');
const CTX: RequestContext = {
  upn: 'alice@example.com',
  roles: [],
  requestId: 'req-1',
  clientAddress: '192.0.2.1',
  session: 'sid:test',
  amr: ['pwd', 'mfa'],
};
const ACTIVE: MfaAccount = { status: 'active', statusReason: null, lockedUntil: null, deviceCount: 2 };
const DEVICE: Device = {
  id: 'd1',
  kind: 'authenticator',
  name: 'App',
  capabilities: ['passcode'],
  phoneNumber: null,
  platform: null,
  serial: null,
  tokenType: null,
  createdAt: NOW.toISOString(),
  lastUsedAt: null,
};

function setup(
  opts: {
    account?: MfaAccount | null;
    fresh?: boolean;
    verify?: VerificationResult;
    provider?: Partial<MfaProvider>;
    pushes?: Partial<PushService>;
    throttled?: boolean;
  } = {},
) {
  const entries: AuditEntry[] = [];
  const audit = {
    append: vi.fn(async (e: AuditEntry) => (entries.push(e), {} as never)),
    // No database here: nothing to roll back.
    atomically: <T>(fn: () => Promise<T>) => fn(),
    prepare: (e: AuditEntry) => e,
    verify: vi.fn(),
    listForUser: vi.fn(),
  } as unknown as AuditService;
  const stepUp: StepUpService = {
    maxAgeSeconds: 300,
    isFresh: vi.fn(async () => opts.fresh ?? false),
    status: vi.fn(),
    endAll: vi.fn(),
    forgetAccount: vi.fn(),
    record: vi.fn(async () => ({
      active: true,
      method: 'passcode' as const,
      verifiedAt: NOW.toISOString(),
      expiresAt: NOW.toISOString(),
      maxAgeSeconds: 300,
    })),
  };
  const verification: VerificationService = {
    verify: vi.fn(async () => opts.verify ?? { ok: true as const, method: 'totp' as const, deviceId: 'd1', bypassId: null }),
    throttle: vi.fn(async () =>
      opts.throttled
        ? { ok: false as const, reason: 'rate_limited' as const, retryAfterSeconds: 30, justLocked: false as const, statusReason: null }
        : null,
    ),
  };
  const mfa = {
    name: 'builtin',
    capabilities: { phones: false, smsActivation: false, push: false, totp: true, hardwareTokens: true, renameHardwareTokens: true },
    getAccount: vi.fn(async () => (opts.account === undefined ? ACTIVE : opts.account)),
    listDevices: vi.fn(async () => [DEVICE]),
    deleteDevice: vi.fn(async () => DEVICE),
    startTotpEnrolment: vi.fn(async () => ({ enrolmentId: 'e1', secret: 'S', otpauthUri: 'otpauth://x', qrSvg: '<svg/>', expiresAt: NOW })),
    createBypassCodes: vi.fn(async () => ({ codes: [{ id: 'b1', code: '123 456 789', expiresAt: NOW, usesLeft: 1 }], replaced: 0 })),
    ...opts.provider,
  } as unknown as MfaProvider;
  const pushes: PushService = { timeoutSeconds: 120, start: vi.fn(), poll: vi.fn(), peek: vi.fn(), forgetAccount: vi.fn(), ...opts.pushes };
  const deps = { mfa, audit, stepUp, verification, pushes, totpIssuer: 'Test', now: () => NOW };
  // The self-service rules as the modules share them (modules/common/self-service.ts).
  const service = {
    ...createDevicesService(deps),
    ...createPhonesService(deps),
    ...createBypassCodesService(deps),
    ...createStepUpFlows(deps),
  };
  return { service, mfa, entries, stepUp, verification, pushes };
}

/** The refusal as the client gets it: the services let errors through, the one translator answers them at the edge. */
const translate = createErrorTranslator({ stepUpMaxAgeSeconds: 300 });

async function appError(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  const answer = translate(err);
  if (!answer) throw err;
  return answer;
}

describe('me service: step-up', () => {
  it('refuses to delete a device without a fresh step-up, before asking the provider, and audits it', async () => {
    const { service, mfa, entries } = setup({ fresh: false });
    const err = await appError(service.deleteDevice(CTX, 'd1', false));
    expect([err.statusCode, err.code, err.details]).toEqual([403, 'auth.step_up_required', { maxAgeSeconds: 300 }]);
    expect(mfa.deleteDevice).not.toHaveBeenCalled();
    expect(entries).toEqual([
      expect.objectContaining({ action: 'device.delete', outcome: 'failure', reason: 'auth.step_up_required', target: CTX.upn }),
    ]);
  });

  it('deletes with a fresh step-up, passing the last-device confirmation through', async () => {
    const { service, mfa, entries } = setup({ fresh: true });
    await service.deleteDevice(CTX, 'd1', true);
    expect(mfa.deleteDevice).toHaveBeenCalledWith(CTX.upn, 'd1', { allowLast: true });
    expect(entries.at(-1)).toMatchObject({
      outcome: 'success',
      details: { deviceId: 'd1', kind: 'authenticator', confirmLastDevice: true },
    });
  });

  it('answers 409 for the last device and 404 for a device that is not mine', async () => {
    const last = setup({ fresh: true, provider: { deleteDevice: vi.fn(async () => Promise.reject(new MfaError('last_device'))) } });
    expect(await appError(last.service.deleteDevice(CTX, 'd1', false))).toMatchObject({
      statusCode: 409,
      code: 'device.last_device_confirmation_required',
    });
    const other = setup({ fresh: true, provider: { deleteDevice: vi.fn(async () => Promise.reject(new MfaError('device_not_found'))) } });
    expect(await appError(other.service.deleteDevice(CTX, 'x', true))).toMatchObject({ statusCode: 404, code: 'device.not_found' });
    expect(other.entries.at(-1)).toMatchObject({ outcome: 'failure', reason: 'device.not_found' });
  });

  it('refuses to create bypass codes without a fresh step-up; records who created them otherwise', async () => {
    const refused = setup({ fresh: false });
    expect(
      await appError(refused.service.createBypassCodes(CTX, { count: 1, validitySeconds: 60, reuseCount: 1, replaceExisting: false })),
    ).toMatchObject({ code: 'auth.step_up_required' });
    expect(refused.mfa.createBypassCodes).not.toHaveBeenCalled();
    const { service, mfa, entries } = setup({ fresh: true });
    const created = await service.createBypassCodes(CTX, { count: 1, validitySeconds: 60, reuseCount: 1, replaceExisting: false });
    expect(created).toEqual({ codes: [{ id: 'b1', code: '123 456 789', expiresAt: NOW.toISOString(), usesLeft: 1 }], replaced: 0 });
    expect(mfa.createBypassCodes).toHaveBeenCalledWith(CTX.upn, expect.objectContaining({ createdBy: CTX.upn }), { now: NOW });
    expect(JSON.stringify(entries)).not.toContain('123 456 789');
    expect(entries.at(-1)).toMatchObject({ action: 'bypass.create', details: { bypassIds: ['b1'] } });
  });

  it('lets the provider accept a new device only as the first one without step-up, and maps its refusal', async () => {
    const { service, mfa } = setup({
      fresh: false,
      provider: { startTotpEnrolment: vi.fn(async () => Promise.reject(new MfaError('has_devices'))) },
    });
    const err = await appError(service.startTotpEnrolment(CTX));
    expect([err.statusCode, err.code, err.details]).toEqual([403, 'auth.step_up_required', { maxAgeSeconds: 300 }]);
    expect(mfa.startTotpEnrolment).toHaveBeenCalledWith(CTX.upn, { allowWhenDevicesExist: false, issuer: 'Test', now: NOW });
    const fresh = setup({ fresh: true });
    await fresh.service.startTotpEnrolment(CTX);
    expect(fresh.mfa.startTotpEnrolment).toHaveBeenCalledWith(CTX.upn, { allowWhenDevicesExist: true, issuer: 'Test', now: NOW });
  });

  it('records a step-up only after a successful verification', async () => {
    const ok = setup();
    await ok.service.stepUp(CTX, { method: 'bypass', code: '123456789' });
    expect(ok.verification.verify).toHaveBeenCalledWith(expect.objectContaining({ upn: CTX.upn, purpose: 'step_up', methods: ['bypass'] }));
    expect(ok.stepUp.record).toHaveBeenCalledWith(CTX, 'bypass', NOW);
    const bad = setup({ verify: { ok: false, reason: 'code_invalid', justLocked: false, retryAfterSeconds: null, statusReason: null } });
    expect(await appError(bad.service.stepUp(CTX, { method: 'passcode', code: '000000' }))).toMatchObject({
      statusCode: 422,
      code: 'mfa.code_invalid',
      details: { field: 'code' },
    });
    expect(bad.stepUp.record).not.toHaveBeenCalled();
  });
});

describe('me service: answers', () => {
  it.each([
    [
      { ok: false, reason: 'rate_limited', retryAfterSeconds: 7, justLocked: false, statusReason: null },
      429,
      'request.rate_limited',
      { 'retry-after': '7' },
    ],
    [
      { ok: false, reason: 'code_invalid', justLocked: true, retryAfterSeconds: 900, statusReason: 'Too many' },
      403,
      'mfa.user_locked_out',
      { 'retry-after': '900' },
    ],
    [
      { ok: false, reason: 'user_locked_out', justLocked: false, retryAfterSeconds: null, statusReason: 'Lost phone' },
      403,
      'mfa.user_locked_out',
      {},
    ],
    [{ ok: false, reason: 'code_replayed', justLocked: false, retryAfterSeconds: null, statusReason: null }, 422, 'mfa.code_replayed', {}],
    [{ ok: false, reason: 'no_factor', justLocked: false, retryAfterSeconds: null, statusReason: null }, 409, 'mfa.no_factor', {}],
    [{ ok: false, reason: 'user_disabled', justLocked: false, retryAfterSeconds: null, statusReason: null }, 403, 'mfa.user_disabled', {}],
  ] as const)('a failed verification %o answers %i %s', async (verify, status, code, headers) => {
    const { service } = setup({ verify: verify as VerificationResult });
    const err = await appError(service.stepUp(CTX, { method: 'passcode', code: '000000' }));
    expect([err.statusCode, err.code, err.headers]).toEqual([status, code, headers]);
  });

  it.each([
    [null, 404, 'mfa.user_not_provisioned', undefined],
    [{ ...ACTIVE, status: 'disabled', statusReason: 'Left' }, 403, 'mfa.user_disabled', { reason: 'Left' }],
    [
      { ...ACTIVE, status: 'locked_out', statusReason: 'Too many', lockedUntil: new Date(NOW.getTime() + 90_500) },
      403,
      'mfa.user_locked_out',
      { reason: 'Too many', retryAfterSeconds: 91 },
    ],
  ] as const)('an account %o answers %i %s on every route', async (account, status, code, details) => {
    const { service } = setup({ account: account as MfaAccount | null, fresh: true });
    for (const run of [
      () => service.listDevices(CTX),
      () => service.deleteDevice(CTX, 'd1', true),
      () => service.stepUp(CTX, { method: 'passcode', code: '123456' }),
      () => service.listBypassCodes(CTX),
    ]) {
      const err = await appError(run());
      expect([err.statusCode, err.code, err.details]).toEqual([status, code, details]);
    }
  });

  it('audits an unexpected failure as server.internal and passes it on unchanged', async () => {
    const boom = new Error('database down');
    const { service, entries } = setup({ fresh: true, provider: { deleteDevice: vi.fn(async () => Promise.reject(boom)) } });
    await expect(service.deleteDevice(CTX, 'd1', true)).rejects.toBe(boom);
    expect(entries.at(-1)).toMatchObject({ outcome: 'failure', reason: 'server.internal' });
  });
});

describe('me service: phones and push', () => {
  const PHONES = {
    phones: true,
    smsActivation: true,
    push: true,
    totp: false,
    hardwareTokens: true,
    renameHardwareTokens: false,
    webauthn: false,
    webauthnEnrolledInProviderPrompt: true,
    authenticatorApp: false,
  };
  const PHONE: Device = { ...DEVICE, id: 'p1', kind: 'phone', name: 'Work phone', capabilities: ['push'], phoneNumber: '+1 ••• ••• 0100' };
  const push = (state: 'waiting' | 'approved' | 'denied') => ({
    txid: 't1',
    deviceId: 'p1',
    state,
    startedAt: NOW.toISOString(),
    expiresAt: NOW.toISOString(),
    completedAt: state === 'waiting' ? null : NOW.toISOString(),
  });

  it('refuses phones on a provider without a phone channel before anything else, audited', async () => {
    const { service, mfa, entries } = setup({ fresh: true, provider: { addPhone: vi.fn() } });
    const err = await appError(service.addPhone(CTX, { number: '+15555550100', platform: 'ios' }));
    expect([err.statusCode, err.code]).toEqual([409, 'mfa.not_supported_by_provider']);
    expect(mfa.addPhone).not.toHaveBeenCalled();
    expect(mfa.getAccount).not.toHaveBeenCalled();
    expect(entries.at(-1)).toMatchObject({ action: 'device.add_phone', outcome: 'failure', reason: 'mfa.not_supported_by_provider' });
  });

  it('adds a phone as the first device without step-up, and only after a step-up otherwise; the number is audited masked', async () => {
    for (const fresh of [false, true]) {
      const { service, mfa, entries } = setup({ fresh, provider: { capabilities: PHONES, addPhone: vi.fn(async () => PHONE) } });
      await service.addPhone(CTX, { number: '+15555550100', platform: 'android', name: 'Work phone' });
      expect(mfa.addPhone).toHaveBeenCalledWith(
        CTX.upn,
        { number: '+15555550100', platform: 'android', name: 'Work phone' },
        { allowWhenDevicesExist: fresh },
      );
      expect(JSON.stringify(entries)).not.toContain('5555550100');
      expect(entries.at(-1)).toMatchObject({ outcome: 'success', details: { deviceId: 'p1', phoneNumber: '+1 ••• ••• 0100' } });
    }
  });

  it('activates the only device without step-up, but needs one when the user has another device', async () => {
    const activation = {
      activationUrl: 'https://x/activate',
      activationBarcodeUrl: 'https://x/qr',
      qrSvg: '<svg/>',
      installationUrl: null,
      expiresAt: NOW,
    };
    const only = setup({
      provider: { capabilities: PHONES, listDevices: vi.fn(async () => [PHONE]), phoneActivation: vi.fn(async () => activation) },
    });
    expect(await only.service.phoneActivation(CTX, 'p1')).toEqual({
      activationUrl: 'https://x/activate',
      qrSvg: '<svg/>',
      installationUrl: null,
      expiresAt: NOW.toISOString(),
    });
    const two = setup({
      fresh: false,
      provider: { capabilities: PHONES, listDevices: vi.fn(async () => [PHONE, DEVICE]), phoneActivation: vi.fn(async () => activation) },
    });
    expect(await appError(two.service.phoneActivation(CTX, 'p1'))).toMatchObject({ code: 'auth.step_up_required' });
    expect(two.mfa.phoneActivation).not.toHaveBeenCalled();
    const notMine = setup({ provider: { capabilities: PHONES, listDevices: vi.fn(async () => [DEVICE]), phoneActivation: vi.fn() } });
    expect(await appError(notMine.service.phoneActivation(CTX, 'p1'))).toMatchObject({ statusCode: 404, code: 'device.not_found' });
  });

  it('spends the verification budget on a test push: when spent, 429 and no push is sent', async () => {
    const { service, pushes } = setup({ throttled: true, provider: { capabilities: PHONES } });
    expect(await appError(service.startTestPush(CTX, 'p1'))).toMatchObject({ statusCode: 429, code: 'request.rate_limited' });
    expect(pushes.start).not.toHaveBeenCalled();
  });

  it('records a step-up by push once, when the poll that completes it sees it approved', async () => {
    const first = setup({
      provider: { capabilities: PHONES },
      pushes: { poll: vi.fn(async () => ({ push: push('approved'), justCompleted: true, detail: null })) },
    });
    await first.service.stepUpPushStatus(CTX, 't1');
    expect(first.stepUp.record).toHaveBeenCalledWith(CTX, 'push', NOW);
    expect(first.entries.at(-1)).toMatchObject({ action: 'step_up.push', outcome: 'success' });

    const later = setup({
      provider: { capabilities: PHONES },
      pushes: { poll: vi.fn(async () => ({ push: push('approved'), justCompleted: false, detail: null })) },
    });
    later.stepUp.status = vi.fn(async () => ({ active: false, method: null, verifiedAt: null, expiresAt: null, maxAgeSeconds: 300 }));
    await later.service.stepUpPushStatus(CTX, 't1');
    expect(later.stepUp.record).not.toHaveBeenCalled();
    expect(later.entries).toEqual([]);

    const denied = setup({
      provider: { capabilities: PHONES },
      pushes: { poll: vi.fn(async () => ({ push: push('denied'), justCompleted: true, detail: 'Login request denied.' })) },
    });
    denied.stepUp.status = vi.fn(async () => ({ active: false, method: null, verifiedAt: null, expiresAt: null, maxAgeSeconds: 300 }));
    const answer = await denied.service.stepUpPushStatus(CTX, 't1');
    expect(answer).toMatchObject({ state: 'denied', stepUp: { active: false } });
    expect(denied.stepUp.record).not.toHaveBeenCalled();
    expect(denied.entries.at(-1)).toMatchObject({ action: 'step_up.push', outcome: 'failure', reason: 'push.denied' });
  });
});
