import { webauthnOptionsResponseSchema, type WebauthnOptionsResponse } from '@mfa-portal/shared';
import type { ApiClient } from '../../../lib/api/api-client';
import { ME_API } from '../../../lib/api/paths';

/** POST /api/me/devices/:id/webauthn-test/options: a challenge for this one passkey or security key. */
export function startWebauthnTest(api: ApiClient, deviceId: string): Promise<WebauthnOptionsResponse> {
  return api.request(ME_API.deviceWebauthnTestOptions(deviceId), { method: 'POST', schema: webauthnOptionsResponseSchema });
}
