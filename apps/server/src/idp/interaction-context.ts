import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignInMethod, SignInMethodName } from '@mfa-portal/shared';
import type Provider from 'oidc-provider';
import { errors as oidcErrors, type InteractionResults } from 'oidc-provider';
import type { AuditEntry, AuditService } from '../modules/audit/audit.service.js';
import type { IdpAccount } from './accounts.js';
import { upnOf, type LoginRefusal, type LoginResult } from './login-policy.js';
import { refusalDescription } from './second-factor.js';
import { LOGIN_MESSAGES, loginPage, SECOND_FACTOR_MESSAGES, secondFactorPage, type PageUrls } from './views.js';
import { html } from './interaction-input.js';
import type { webauthnSecondFactor } from './webauthn-step.js';

type Passkey = ReturnType<typeof webauthnSecondFactor>;

/** What every step of a sign-in interaction shares: the pages it answers with and how it ends. */
export interface InteractionContextOptions {
  provider: Provider;
  urls: PageUrls;
  /** Path prefix of the provider (e.g. `/idp`): form actions are absolute paths under it. */
  mountPath: string;
  audit: AuditService;
  /** The passkey alternative of the second step; null when the provider does not verify passkeys. */
  passkey: Passkey | null;
  /** The devices a push can go to (the push alternative of the second step); none without it. */
  pushOffer?: (upn: string) => Promise<Array<{ id: string; name: string }>>;
  /** The person's default sign-in method (or the safest they have): what the second page offers first. */
  firstMethod?: (upn: string) => Promise<SignInMethod | null>;
  /** What the person's factor policy lets them use now: the page offers only that (the steps refuse the rest). */
  usable?: (upn: string) => Promise<{
    passcode: boolean;
    bypass: boolean;
    webauthn: boolean;
    devices: ReadonlyArray<{ usable: boolean }>;
    deviceUsable(id: string): boolean;
  }>;
}

/**
 * The helpers the password, passcode and passkey steps have in common, built once per mount so that
 * each step's routes live in their own file yet page, finish and audit a sign-in the same way.
 */
export function interactionContext(opts: InteractionContextOptions) {
  const { provider, urls, mountPath, audit, passkey } = opts;
  const pagePath = (uid: string) => `${mountPath}/interaction/${encodeURIComponent(uid)}`;
  const actionFor = (uid: string) => `${pagePath(uid)}/login`;
  const verifyActionFor = (uid: string) => `${pagePath(uid)}/verify`;

  /**
   * The second page (passcode, a push to each phone and a passkey when the user has them). First comes
   * what was just `tried` (after a wrong code, the field again), else the person's default sign-in method,
   * its phone first among the pushes.
   */
  const secondStep = async (reply: FastifyReply, status: number, uid: string, upn: string, error?: string, tried?: SignInMethodName) => {
    const at = pagePath(uid);
    // Unknown (the policy could not be read): the usual page; each step still checks what it is given.
    const usable = (await opts.usable?.(upn).catch(() => null)) ?? null;
    const webauthn =
      passkey && (usable?.webauthn ?? true) && (await passkey.offered(upn))
        ? { optionsUrl: `${at}/webauthn/options`, action: `${at}/webauthn` }
        : null;
    // What comes first is a courtesy: the page is shown in its usual order should it not be known.
    const preferred = (await opts.firstMethod?.(upn).catch(() => null)) ?? null;
    const devices = ((await opts.pushOffer?.(upn)) ?? []).filter((d) => !usable || usable.deviceUsable(d.id));
    if (preferred?.method === 'push') devices.sort((a, b) => Number(b.id === preferred.deviceId) - Number(a.id === preferred.deviceId));
    const push = devices.length > 0 ? { action: `${at}/push`, devices } : null;
    const first = tried ?? preferred?.method;
    const model = {
      action: verifyActionFor(uid),
      username: upn,
      ...(error ? { error } : {}),
      ...(webauthn ? { webauthn } : {}),
      ...(push ? { push } : {}),
      ...(first ? { first } : {}),
      ...(usable && !usable.passcode && !usable.bypass ? { passcode: false } : {}),
      // None of their devices may be used: say so (a bypass code from the service desk is all that may still work).
      ...(usable && !usable.passcode && !webauthn && !push && usable.devices.some((h) => !h.usable)
        ? { notice: usable.bypass ? SECOND_FACTOR_MESSAGES.onlyBypassAllowed : SECOND_FACTOR_MESSAGES.nothingAllowed }
        : {}),
    };
    return html(reply, status, secondFactorPage(urls, model));
  };

  /** The second factor came too late (or without a password step): the password page again. */
  const passwordAgain = async (request: FastifyRequest, reply: FastifyReply, uid: string) => {
    await provider.interactionResult(request.raw, reply.raw, {}, { mergeWithLastSubmission: false });
    return html(reply, 400, loginPage(urls, { action: actionFor(uid), error: LOGIN_MESSAGES.secondFactorExpired }));
  };

  /** The pending interaction for this browser, or a reason to refuse. */
  async function pendingInteraction(request: FastifyRequest, reply: FastifyReply, uid: string) {
    const details = await provider.interactionDetails(request.raw, reply.raw);
    if (details.uid !== uid) throw new oidcErrors.SessionNotFound('interaction does not match the cookie');
    return details;
  }

  /** Stores `result` in the interaction (replacing what an earlier step left there). */
  async function storeResult(request: FastifyRequest, reply: FastifyReply, result: InteractionResults) {
    return provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
  }

  /** Stores `result` in the interaction and sends the browser back to the provider, which acts on it. */
  async function finish(request: FastifyRequest, reply: FastifyReply, result: InteractionResults) {
    const returnTo = await storeResult(request, reply, result);
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  }

  const record = (request: FastifyRequest, entry: Omit<AuditEntry, 'requestId' | 'clientAddress'>) =>
    audit.append({ ...entry, requestId: request.id, clientAddress: request.ip ?? null });
  const actorOf = (account: IdpAccount) => ({ upn: upnOf(account), roles: [...account.roles] });

  async function completeSignIn(request: FastifyRequest, reply: FastifyReply, account: IdpAccount, login: LoginResult) {
    request.log.info({ event: 'idp.login_succeeded', accountId: account.id, amr: login.amr }, 'signed in');
    return finish(request, reply, { login });
  }

  /**
   * Ends the authorization with `access_denied` (no code, no token): the portal receives the stable
   * code and the provider's reason in `error_description` and shows its account-disabled page.
   */
  async function refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    account: IdpAccount,
    refusal: LoginRefusal,
    stage: 'password' | 'second_factor',
  ) {
    await record(request, {
      actor: actorOf(account),
      target: upnOf(account),
      action: 'idp.login.refused',
      outcome: 'failure',
      reason: refusal.code,
      details: { stage, ...(refusal.reason ? { statusReason: refusal.reason } : {}) },
    });
    request.log.info(
      { event: 'idp.login_refused', accountId: account.id, code: refusal.code, stage },
      'sign-in refused by the MFA provider',
    );
    return finish(request, reply, { error: 'access_denied', error_description: refusalDescription(refusal) });
  }

  return {
    urls,
    pagePath,
    actionFor,
    secondStep,
    passwordAgain,
    pendingInteraction,
    storeResult,
    finish,
    record,
    actorOf,
    completeSignIn,
    refuse,
  };
}

export type InteractionContext = ReturnType<typeof interactionContext>;
