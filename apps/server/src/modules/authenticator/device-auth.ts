import type { FastifyRequest } from 'fastify';
import { DEVICE_SIGNATURE_WINDOW_SECONDS, deviceAuthSigningInput, parseDeviceAuthHeader } from '@mfa-portal/shared';
import { verifyDeviceSignature } from '../../lib/device-signature.js';
import { AppError } from '../../lib/errors.js';
import type { MfaProvider } from '../../mfa/port.js';
import { lockedOut } from '../common/answers.js';
import type { DeviceCaller } from './authenticator-app.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The device that signed this request to the authenticator app's API (set by the device-auth hook). */
    device: DeviceCaller;
  }
}

export { verifyDeviceSignature };

const unauthorized = (reason: string) => new AppError({ code: 'authenticator.device_unauthorized', details: { reason } });

/**
 * preHandler of the app's API: the `Authorization: PortalDevice deviceId, ts, sig` header must be a
 * signature by the device's key over the method, the path as requested (without the query) and a time
 * close to now; unknown devices and bad signatures are the same 401. The device's owner must still be
 * able to use the account: a disabled or locked account is told so, not served.
 */
export function deviceAuth(mfa: MfaProvider, now: () => number = Date.now) {
  return async function authenticateDevice(request: FastifyRequest): Promise<void> {
    const header = parseDeviceAuthHeader(request.headers.authorization);
    if (!header) throw unauthorized('missing or malformed PortalDevice authorization');
    if (Math.abs(now() - header.ts) > DEVICE_SIGNATURE_WINDOW_SECONDS * 1000)
      throw unauthorized('signed too long ago, or the clock is wrong');
    const app = mfa.capabilities.authenticatorApp ? mfa.authenticatorApp : undefined;
    const key = app ? await app.deviceKey(header.deviceId) : null;
    const path = (request.raw.url ?? request.url).split('?')[0]!;
    if (!key || !verifyDeviceSignature(key.publicKey, deviceAuthSigningInput(request.method, path, header.ts), header.sig))
      throw unauthorized('unknown device or bad signature');
    const upn = key.username.toLowerCase();
    const account = await mfa.getAccount(upn);
    if (!account) throw unauthorized('the account no longer exists');
    if (account.status === 'disabled')
      throw new AppError({ code: 'mfa.user_disabled', ...(account.statusReason ? { details: { reason: account.statusReason } } : {}) });
    if (account.status === 'locked_out') {
      const retry = account.lockedUntil ? Math.ceil((account.lockedUntil.getTime() - now()) / 1000) : null;
      throw lockedOut(account.statusReason, retry);
    }
    request.device = { deviceId: key.deviceId, upn, requestId: request.id, clientAddress: request.ip ?? null };
  };
}
