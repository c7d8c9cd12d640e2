import { afterEach, describe, expect, it } from 'vitest';
import type { AdminLostDeviceProgress } from '@mfa-portal/shared';
import { phone } from '../../../test/fixtures';
import { currentStep, readStored, storageKey, writeStored } from './wizard-state';

type Case = NonNullable<AdminLostDeviceProgress['case']>;
const kase = (overrides: Partial<Case> = {}): Case => ({
  startedAt: '2025-05-01T10:00:00.000Z',
  actorUpn: 'helpdesk@example.com',
  reason: 'Lost on the train',
  ticket: 'INC-7',
  removedDevice: { id: 'd1', name: 'Lost phone', kind: 'phone', removedAt: '2025-05-01T10:00:00.000Z' },
  bypassCode: { id: 'b1', issuedAt: '2025-05-01T10:00:01.000Z', expiresAt: '2025-05-02T10:00:01.000Z', usesLeft: 1 },
  newDevices: [],
  tested: null,
  ...overrides,
});
const check = { checkedAt: '2025-05-01T09:59:00.000Z', deviceId: 'd2' };

afterEach(() => sessionStorage.clear());

describe('lost-device wizard: the current step', () => {
  it('follows the server: verify, remove, code, enrol, test, done', () => {
    expect(currentStep({ identityCheck: null, case: null }, {}, false)).toBe('verify');
    expect(currentStep({ identityCheck: check, case: null }, {}, false)).toBe('remove');
    expect(currentStep({ identityCheck: null, case: null }, { verifiedOtherWay: true }, false)).toBe('remove');
    expect(currentStep({ identityCheck: null, case: kase({ bypassCode: null }) }, {}, false)).toBe('code');
    expect(currentStep({ identityCheck: null, case: kase() }, {}, true)).toBe('code');
    expect(currentStep({ identityCheck: null, case: kase() }, {}, false)).toBe('enrol');
    expect(currentStep({ identityCheck: null, case: kase({ newDevices: [phone] }) }, {}, false)).toBe('test');
    expect(
      currentStep(
        { identityCheck: null, case: kase({ newDevices: [phone], tested: { deviceId: 'd1', testedAt: '2025-05-01T11:00:00.000Z' } }) },
        {},
        false,
      ),
    ).toBe('done');
  });

  it('sets a finished case aside when the caller starts a new one', () => {
    const done = kase({ newDevices: [phone], tested: { deviceId: 'd1', testedAt: '2025-05-01T11:00:00.000Z' } });
    expect(currentStep({ identityCheck: null, case: done }, { ignoreCasesBefore: '2025-05-01T12:00:00.000Z' }, false)).toBe('verify');
    expect(
      currentStep(
        { identityCheck: null, case: kase({ startedAt: '2025-05-01T13:00:00.000Z' }) },
        { ignoreCasesBefore: '2025-05-01T12:00:00.000Z' },
        false,
      ),
    ).toBe('enrol');
  });

  it('keeps its two browser-side facts per administrator and user, and ignores anything else stored', () => {
    const key = storageKey('Helpdesk@example.com', 'BOB@example.com');
    expect(key).toBe('mfa-portal.lost-device.helpdesk@example.com.bob@example.com');
    writeStored(key, { verifiedOtherWay: true });
    expect(readStored(key)).toEqual({ verifiedOtherWay: true });
    sessionStorage.setItem(key, '{"verifiedOtherWay":"yes","code":"123456789","ignoreCasesBefore":5}');
    expect(readStored(key)).toEqual({});
    sessionStorage.setItem(key, 'not json');
    expect(readStored(key)).toEqual({});
  });
});
