import { webauthnOptionsResponseSchema, type WebauthnOptionsResponse } from '@mfa-portal/shared';
import type { ApiClient } from '../../api/api-client';
import { ME_API } from '../../api/paths';

/** POST /api/me/step-up/webauthn/options: a challenge for the user's passkeys and security keys. */
export function startWebauthnStepUp(api: ApiClient): Promise<WebauthnOptionsResponse> {
  return api.request(ME_API.stepUpWebauthnOptions, { method: 'POST', schema: webauthnOptionsResponseSchema });
}
