import { stepUpStatusSchema, type StepUpStatus } from '@mfa-portal/shared';
import type { ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';

/** GET /api/me/step-up: whether this sign-in session confirmed it is the user recently enough, and until when. */
export function getStepUpStatus(api: ApiClient, signal?: AbortSignal): Promise<StepUpStatus> {
  return api.request(ME_API.stepUp, { schema: stepUpStatusSchema, ...(signal ? { signal } : {}) });
}
