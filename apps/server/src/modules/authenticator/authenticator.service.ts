import QRCode from 'qrcode';
import { AUTHENTICATOR_APP_PATH, type AuthenticatorActivation, type AuthenticatorActivationState } from '@mfa-portal/shared';
import { MfaError, type AuthenticatorApp } from '../../mfa/port.js';
import type { RequestContext } from '../common/request-context.js';
import { iso, selfService, type SelfServiceDeps } from '../common/self-service.js';

/**
 * The portal's side of activating its own authenticator app (`/api/me/devices/authenticator-app`): a
 * single-use link, bound to the caller and short-lived, shown as a QR code and as text. The token rides
 * in the link's fragment, so it never reaches a server or proxy log. Adding a device this way follows
 * the rules of every other: a fresh step-up when the caller has a device, the first-device policy when not.
 */
export function createAuthenticatorService(deps: SelfServiceDeps & { publicUrl: string }) {
  const { mfa } = deps;
  const { clock, usableAccount, mayEnrol, allowWhenDevicesExist, audited } = selfService(deps);

  /** The adapter's app side; 409 `mfa.not_supported_by_provider` where the provider has its own phone app. */
  function appOrRefuse(): AuthenticatorApp {
    const app = mfa.authenticatorApp;
    if (!mfa.capabilities.authenticatorApp || !app)
      throw new MfaError('not_supported', { reason: `The ${mfa.name} MFA provider has its own phone app.` });
    return app;
  }

  const linkFor = (token: string) => `${deps.publicUrl}${AUTHENTICATOR_APP_PATH}#activate=${token}`;

  return {
    async startActivation(ctx: RequestContext): Promise<AuthenticatorActivation> {
      const now = clock();
      const started = await audited(
        ctx,
        'device.activation',
        { channel: 'portal_authenticator' },
        async () => {
          const app = appOrRefuse();
          await usableAccount(ctx, now);
          await mayEnrol(ctx, 'portal_authenticator');
          return app.startActivation(ctx.upn, { allowWhenDevicesExist: await allowWhenDevicesExist(ctx, now), now });
        },
        (r) => ({ activationId: r.activationId, expiresAt: iso(r.expiresAt) }),
      );
      const activationUrl = linkFor(started.token);
      const qrSvg = await QRCode.toString(activationUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return { activationId: started.activationId, activationUrl, qrSvg, expiresAt: iso(started.expiresAt) };
    },

    async activationState(ctx: RequestContext, activationId: string): Promise<AuthenticatorActivationState> {
      const app = appOrRefuse();
      const state = await app.activationState(ctx.upn, activationId, { now: clock() });
      return { state: state.state, expiresAt: iso(state.expiresAt), device: state.device };
    },
  };
}

export type AuthenticatorService = ReturnType<typeof createAuthenticatorService>;
