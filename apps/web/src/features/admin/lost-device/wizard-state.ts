import type { AdminLostDeviceProgress } from '@mfa-portal/shared';

/**
 * The lost-device wizard's steps and how the current one is worked out.
 *
 * The server is the source of truth: every step is an audit event, and GET .../lost-device derives
 * from them (and the user's devices) the caller's recent identity check and the latest case of the
 * last 24 hours. So a wizard interrupted by a reload, a closed tab, another browser or a colleague
 * taking over resumes at the right step. Only two things live in the browser, in sessionStorage
 * (per tab) under a key naming both the administrator and the user: "I verified them another way"
 * (nothing to audit until the next step, whose reason says how), and "start a new case", which sets
 * aside a finished case of the last 24 hours. The bypass code itself is never stored: it is shown
 * once, from the answer that created it; after a reload the wizard offers a new one instead.
 */

export const WIZARD_STEPS = ['verify', 'remove', 'code', 'enrol', 'test', 'done'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export interface StoredWizard {
  /** The caller said they verified the user another way (no device could give a code). */
  verifiedOtherWay?: boolean;
  /** Cases that started before this instant are finished business: start afresh. */
  ignoreCasesBefore?: string;
}

export const storageKey = (adminUpn: string, userUpn: string) =>
  `mfa-portal.lost-device.${adminUpn.toLowerCase()}.${userUpn.toLowerCase()}`;

export function readStored(key: string): StoredWizard {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(key) ?? '{}');
    if (!value || typeof value !== 'object') return {};
    const v = value as Record<string, unknown>;
    return {
      ...(v.verifiedOtherWay === true ? { verifiedOtherWay: true } : {}),
      ...(typeof v.ignoreCasesBefore === 'string' ? { ignoreCasesBefore: v.ignoreCasesBefore } : {}),
    };
  } catch {
    return {};
  }
}

export function writeStored(key: string, value: StoredWizard): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage refused (private mode, quota): the wizard still works from the server's state.
  }
}

/** The case the wizard is about: the server's latest one, unless the caller chose to start afresh after it. */
export function currentCase(progress: AdminLostDeviceProgress, stored: StoredWizard): AdminLostDeviceProgress['case'] {
  const kase = progress.case;
  if (!kase) return null;
  if (stored.ignoreCasesBefore && Date.parse(kase.startedAt) <= Date.parse(stored.ignoreCasesBefore)) return null;
  return kase;
}

/**
 * The step to show. `codeOnScreen`: a code was just issued in this tab and is still on screen (it
 * stays on step 3 until the caller moves on).
 */
export function currentStep(progress: AdminLostDeviceProgress, stored: StoredWizard, codeOnScreen: boolean): WizardStep {
  const kase = currentCase(progress, stored);
  if (!kase) return progress.identityCheck || stored.verifiedOtherWay ? 'remove' : 'verify';
  if (!kase.bypassCode || codeOnScreen) return 'code';
  if (kase.newDevices.length === 0) return 'enrol';
  return kase.tested ? 'done' : 'test';
}
