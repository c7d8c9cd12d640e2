import type { MfaProvider } from '../../mfa/port.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import { atProvider } from './scim-provider.js';
import { preferredEmail, realNameOf, type ScimUserInput, type ScimUserRecord } from './scim-users.model.js';
import type { ScimRepository, UserColumns } from './scim.repository.js';

export const SCIM_DISABLED_REASON = "Deactivated in the organisation's directory";

/** The stored columns of a SCIM user's representation. */
export function columnsOf(input: ScimUserInput, previousRoles: ScimUserRecord['roles']): UserColumns {
  return {
    userName: input.userName,
    externalId: input.externalId,
    active: input.active,
    displayName: input.displayName,
    givenName: input.name?.givenName ?? null,
    familyName: input.name?.familyName ?? null,
    formattedName: input.name?.formatted ?? null,
    emails: input.emails,
    addresses: input.addresses,
    // Roles not mentioned stay as they were: unknown roles keep an account protected.
    roles: input.roles ?? previousRoles,
  };
}

/** The attributes a change touched, as the audit event names them (never their values). */
export function changedAttributes(before: ScimUserRecord, after: ScimUserRecord, passwordSet: boolean): string[] {
  const out: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (before.userName !== after.userName) out.push('userName');
  if (before.externalId !== after.externalId) out.push('externalId');
  if (before.active !== after.active) out.push('active');
  if (before.displayName !== after.displayName) out.push('displayName');
  if (before.givenName !== after.givenName || before.familyName !== after.familyName || before.formattedName !== after.formattedName)
    out.push('name');
  if (!same(before.emails, after.emails)) out.push('emails');
  if (!same(before.addresses, after.addresses)) out.push('addresses');
  if (!same(before.roles, after.roles)) out.push('roles');
  if (passwordSet) out.push('password');
  return out;
}

export interface ScimUserEffectsDeps {
  mfa: MfaProvider;
  sessions?: Pick<SessionsService, 'revokeAll'>;
  /** Whether the embedded identity provider holds the account (and its SCIM `password`). */
  embeddedIdp: boolean;
}

/**
 * What a SCIM user's change means elsewhere: the directory entry the policy reads, the identity
 * provider's account in the embedded mode, the user's sessions, and the MFA account (created without
 * devices, disabled while `active` is false). All of it inside the caller's transaction (the unit of work).
 */
export function scimUserEffects(deps: ScimUserEffectsDeps) {
  const { mfa } = deps;

  /** Mirrors a user into the directory, the MFA account and the embedded identity provider. */
  async function applyEffects(
    r: ScimRepository,
    before: ScimUserRecord | null,
    after: ScimUserRecord,
    passwordHash: string | undefined,
    now: Date,
  ) {
    const upn = after.userName.toLowerCase();
    const email = preferredEmail(after.emails);
    const realName = realNameOf(after);
    const renamed = before !== null && before.userName.toLowerCase() !== upn;
    if (renamed) {
      await r.renameDirectory(before.userName, upn);
      await r.renameIdpAccount(before.userName, upn);
      const lifecycle = mfa.lifecycle;
      if (lifecycle) await atProvider(() => lifecycle.update(before.userName, { newUsername: upn }));
    }
    await r.upsertDirectory(
      { upn, displayName: realName, email, ...(after.roles ? { roles: after.roles.map((x) => x.value) } : {}) },
      'scim',
      now,
      { provisioned: before === null },
    );
    if (deps.embeddedIdp)
      await r.upsertIdpAccount({
        username: upn,
        passwordHash,
        email,
        givenName: after.givenName ?? '',
        familyName: after.familyName ?? '',
      });
    if (!after.active && (before === null || before.active)) await deps.sessions?.revokeAll(upn, 'account_disabled', { now });
    // A new password ends the sessions signed in with the old one (a new account has none).
    else if (passwordHash !== undefined && before !== null) await deps.sessions?.revokeAll(upn, 'password_changed', { now });
    const lifecycle = mfa.lifecycle;
    if (lifecycle) {
      // A user created inactive is created disabled (at Duo: in the same Create User call).
      const created = before === null && !after.active ? { disabledReason: SCIM_DISABLED_REASON } : {};
      await atProvider(() => lifecycle.provision(upn, { email, realName }, created));
      if (!after.active && (before === null || before.active))
        await atProvider(() => lifecycle.setEnabled(upn, false, SCIM_DISABLED_REASON));
      if (after.active && before !== null && !before.active) await atProvider(() => lifecycle.setEnabled(upn, true, null));
    }
  }

  return { applyEffects };
}
