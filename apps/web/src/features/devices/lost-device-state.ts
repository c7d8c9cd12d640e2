import type { Device } from '@mfa-portal/shared';

/**
 * Progress of the self-service lost-device wizard, per user, in sessionStorage (this tab): which steps
 * were done and when; never a code. The devices come from the server each time, so "added a new
 * device" is what the server says (any device added after the removal).
 */
export interface SelfLostDeviceState {
  verifiedAt?: string;
  removed?: { id: string; name: string; at: string };
  codeIssuedAt?: string;
  testedDeviceId?: string;
}

export type SelfStep = 'verify' | 'remove' | 'code' | 'enrol' | 'test' | 'done';
export const SELF_STEPS: readonly SelfStep[] = ['verify', 'remove', 'code', 'enrol', 'test'];

export const selfStorageKey = (upn: string) => `mfa-portal.self-lost-device.${upn.toLowerCase()}`;

export function readSelfState(key: string): SelfLostDeviceState {
  try {
    const v = JSON.parse(sessionStorage.getItem(key) ?? '{}') as Record<string, unknown>;
    const removed = v.removed as Record<string, unknown> | undefined;
    return {
      ...(typeof v.verifiedAt === 'string' ? { verifiedAt: v.verifiedAt } : {}),
      ...(removed && typeof removed.id === 'string' && typeof removed.name === 'string' && typeof removed.at === 'string'
        ? { removed: { id: removed.id, name: removed.name, at: removed.at } }
        : {}),
      ...(typeof v.codeIssuedAt === 'string' ? { codeIssuedAt: v.codeIssuedAt } : {}),
      ...(typeof v.testedDeviceId === 'string' ? { testedDeviceId: v.testedDeviceId } : {}),
    };
  } catch {
    return {};
  }
}

export function writeSelfState(key: string, state: SelfLostDeviceState): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(state));
  } catch {
    // Storage refused: the wizard still works in this page.
  }
}

/** Devices added after the lost one was removed. */
export const newDevicesOf = (state: SelfLostDeviceState, devices: readonly Device[]) =>
  state.removed ? devices.filter((d) => Date.parse(d.createdAt) > Date.parse(state.removed!.at)) : [];

export function selfStep(state: SelfLostDeviceState, devices: readonly Device[]): SelfStep {
  if (!state.verifiedAt) return 'verify';
  if (!state.removed) return 'remove';
  if (!state.codeIssuedAt) return 'code';
  const added = newDevicesOf(state, devices);
  if (added.length === 0) return 'enrol';
  return state.testedDeviceId && added.some((d) => d.id === state.testedDeviceId) ? 'done' : 'test';
}
