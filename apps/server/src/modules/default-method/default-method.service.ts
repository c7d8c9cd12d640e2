import {
  RECOMMENDED_METHOD_ORDER,
  type DefaultMethodDecider,
  type DefaultMethodResponse,
  type DefaultMethodSource,
  type Device,
  type SetDefaultMethodBody,
  type SignInMethod,
} from '@mfa-portal/shared';
import { AppError } from '../../lib/errors.js';
import type { RequestContext } from '../common/request-context.js';
import { selfService, type SelfServiceDeps } from '../common/self-service.js';
import type { DefaultMethodRepository } from './default-method.repository.js';

/**
 * What the sign-in page can offer with these devices, in the recommended order (passkeys, then pushes,
 * then passcodes; within each, the devices in their own order): a push only where the provider can
 * push, a passkey only where the portal checks passkeys itself.
 */
export function signInChoices(devices: readonly Device[], can: { push: boolean; webauthn: boolean }): SignInMethod[] {
  const usable = RECOMMENDED_METHOD_ORDER.filter((method) => (method === 'push' ? can.push : method === 'webauthn' ? can.webauthn : true));
  return usable.flatMap((method) => devices.filter((d) => d.capabilities.includes(method)).map((d) => ({ deviceId: d.id, method })));
}

const same = (a: SignInMethod, b: SignInMethod) => a.deviceId === b.deviceId && a.method === b.method;

/**
 * What is offered first: the person's choice while it can still be used; otherwise the first of the
 * choices (the safest they have), said to replace their choice when they had made one.
 */
export function offeredFirst(
  chosen: SignInMethod | null,
  choices: readonly SignInMethod[],
): { current: SignInMethod | null; source: DefaultMethodSource } {
  const kept = chosen ? choices.find((c) => same(c, chosen)) : undefined;
  if (kept) return { current: kept, source: 'chosen' };
  return { current: choices[0] ?? null, source: chosen ? 'replaced' : 'recommended' };
}

export interface DefaultMethodDeps extends SelfServiceDeps {
  repository: DefaultMethodRepository;
  /**
   * Who decides what a sign-in offers first: the portal's own sign-in page, or (when the second factor
   * is asked elsewhere) the MFA service's prompt or the organisation's identity provider.
   */
  decidedBy: DefaultMethodDecider;
}

/**
 * The caller's default sign-in method (`/api/me/default-method`): read it with what can be chosen, and
 * choose one of their own devices and a way it can be used. The embedded sign-in page asks
 * {@link firstAtSignIn} what to offer first. Choosing changes nothing about what is accepted, so it needs
 * no step-up; it is audited like every change.
 */
export function createDefaultMethodService(deps: DefaultMethodDeps) {
  const { mfa, repository, decidedBy } = deps;
  const { clock, usableAccount, audited } = selfService(deps);
  const can = { push: mfa.capabilities.push, webauthn: mfa.capabilities.webauthn };

  async function answer(upn: string, devices?: readonly Device[]): Promise<DefaultMethodResponse> {
    if (decidedBy !== 'portal') return { decidedBy, current: null, source: 'recommended', choices: [] };
    const choices = signInChoices(devices ?? (await mfa.listDevices(upn)), can);
    return { decidedBy, ...offeredFirst(await repository.find(upn), choices), choices };
  }

  return {
    async read(ctx: RequestContext): Promise<DefaultMethodResponse> {
      await usableAccount(ctx, clock());
      return answer(ctx.upn);
    },

    async choose(ctx: RequestContext, body: SetDefaultMethodBody): Promise<DefaultMethodResponse> {
      const now = clock();
      // The device's name for the activity ("You chose “Pixel 8” to be offered first").
      let deviceName: string | null = null;
      return audited(
        ctx,
        'device.set_default',
        { deviceId: body.deviceId, method: body.method },
        async () => {
          await usableAccount(ctx, now);
          if (decidedBy !== 'portal')
            throw new AppError({
              code: 'mfa.not_supported_by_provider',
              details: {
                reason:
                  decidedBy === 'mfa_provider'
                    ? "The MFA service's own prompt decides what a sign-in asks first."
                    : "The organisation's sign-in page decides what a sign-in asks first.",
              },
            });
          const devices = await mfa.listDevices(ctx.upn);
          // Another person's device, or none at all: the same answer, so nothing is learnt of others' devices.
          if (!devices.some((d) => d.id === body.deviceId)) throw new AppError({ code: 'device.not_found' });
          const choice = signInChoices(devices, can).find((c) => same(c, body));
          if (!choice)
            throw new AppError({
              code: 'request.invalid',
              details: { field: 'method', reason: `this device cannot be used for ${body.method} at sign-in` },
            });
          await repository.save(ctx.upn, choice, now);
          deviceName = devices.find((d) => d.id === body.deviceId)?.name ?? null;
          return answer(ctx.upn, devices);
        },
        () => (deviceName ? { deviceName } : {}),
      );
    },

    /** What the portal's sign-in page offers first to `upn`; null when the portal does not decide, or nothing can be offered. */
    async firstAtSignIn(upn: string): Promise<SignInMethod | null> {
      if (decidedBy !== 'portal') return null;
      return (await answer(upn)).current;
    },

    /** A removed account's choice goes with it, inside the removal's transaction. */
    async forgetAccount(upn: string): Promise<void> {
      await repository.forget(upn);
    },
  };
}

export type DefaultMethodService = ReturnType<typeof createDefaultMethodService>;
