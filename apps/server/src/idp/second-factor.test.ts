import { describe, expect, it } from 'vitest';
import type { IdpAccount } from './accounts.js';
import { mfaLoginPolicy } from './login-policy.js';
import type { MfaAccount } from '../mfa/port.js';
import { parsePasscodeInput, pendingResult, pendingSecondFactor, refusalDescription, SECOND_FACTOR_TTL_SECONDS } from './second-factor.js';
import { secondFactorPage } from './views.js';

const account = { id: '3f1c2d4e-0000-4000-8000-000000000001', username: 'Alice@Example.com', roles: [] } as unknown as IdpAccount;
const status = (s: Partial<MfaAccount>): MfaAccount => ({ status: 'active', statusReason: null, lockedUntil: null, deviceCount: 0, ...s });
const policyWith = (answer: MfaAccount | null) => mfaLoginPolicy({ getAccount: async () => answer });

describe('login policy after the password', () => {
  it('completes with amr ["pwd"] when the user is not provisioned, in bypass status, or has no device', async () => {
    for (const answer of [null, status({ status: 'bypass', deviceCount: 2 }), status({ deviceCount: 0 })]) {
      expect(await policyWith(answer)(account)).toEqual({
        kind: 'complete',
        login: { accountId: account.id, amr: ['pwd'], remember: true },
      });
    }
  });

  it('asks for the second factor when an active user has a device, naming the user by lower-case UPN', async () => {
    expect(await policyWith(status({ deviceCount: 1 }))(account)).toEqual({
      kind: 'second_factor',
      accountId: account.id,
      upn: 'alice@example.com',
    });
  });

  it('refuses disabled and locked-out users with their code and reason', async () => {
    expect(await policyWith(status({ status: 'disabled', statusReason: 'Left', deviceCount: 1 }))(account)).toEqual({
      kind: 'refused',
      refusal: { code: 'mfa.user_disabled', reason: 'Left' },
    });
    expect(await policyWith(status({ status: 'locked_out', statusReason: null }))(account)).toEqual({
      kind: 'refused',
      refusal: { code: 'mfa.user_locked_out', reason: null },
    });
  });

  it('asks the MFA provider by UPN', async () => {
    const asked: string[] = [];
    await mfaLoginPolicy({ getAccount: async (u) => (asked.push(u), null) })(account);
    expect(asked).toEqual(['alice@example.com']);
  });
});

describe('pending second factor (interaction state)', () => {
  const pending = { accountId: account.id, upn: 'alice@example.com', passwordAt: 1_000_000 };

  it('reads back what the password step stored, within its lifetime', () => {
    expect(pendingSecondFactor(pendingResult(pending), 1_000_000)).toEqual(pending);
    expect(pendingSecondFactor(pendingResult(pending), 1_000_000 + SECOND_FACTOR_TTL_SECONDS)).toEqual(pending);
  });

  it('is gone once too old, before its time, or when malformed or absent', () => {
    expect(pendingSecondFactor(pendingResult(pending), 1_000_001 + SECOND_FACTOR_TTL_SECONDS)).toBeNull();
    expect(pendingSecondFactor(pendingResult(pending), 999_999)).toBeNull();
    for (const result of [
      undefined,
      null,
      {},
      { login: { accountId: 'x' } },
      { secondFactor: { ...pending, accountId: '' } },
      { secondFactor: 'x' },
    ]) {
      expect(pendingSecondFactor(result, 1_000_000)).toBeNull();
    }
  });

  it('holds no login: resuming with it signs nobody in', () => {
    expect(pendingResult(pending)).not.toHaveProperty('login');
  });
});

describe('Passcode input', () => {
  it('takes 6-digit passcodes and 9-digit bypass codes, ignoring spaces and dashes', () => {
    expect(parsePasscodeInput('123456')).toEqual({ kind: 'passcode', code: '123456' });
    expect(parsePasscodeInput(' 123 456 ')).toEqual({ kind: 'passcode', code: '123456' });
    expect(parsePasscodeInput('123 456 789')).toEqual({ kind: 'bypass', code: '123456789' });
    expect(parsePasscodeInput('123-456-789')).toEqual({ kind: 'bypass', code: '123456789' });
  });

  it('calls anything else malformed', () => {
    for (const input of ['', '12345', '1234567', '12345678', '1234567890', 'abcdef', '١٢٣٤٥٦', '123.456', '1'.repeat(6) + ' '.repeat(40)]) {
      expect(parsePasscodeInput(input), JSON.stringify(input)).toEqual({ kind: 'malformed' });
    }
  });
});

describe('error_description of a refused sign-in', () => {
  it('is the stable code, then the reason', () => {
    expect(refusalDescription({ code: 'mfa.user_disabled', reason: 'Disabled by the security team' })).toBe(
      'mfa.user_disabled: Disabled by the security team',
    );
    expect(refusalDescription({ code: 'mfa.user_locked_out', reason: null })).toBe('mfa.user_locked_out');
    expect(refusalDescription({ code: 'mfa.user_locked_out', reason: '   ' })).toBe('mfa.user_locked_out');
  });

  it('keeps to the characters RFC 6749 allows (printable ASCII without " and \\), and is bounded', () => {
    const out = refusalDescription({ code: 'mfa.user_disabled', reason: 'Désactivé "par" l\\équipe\n\tsécurité — 🔒' + 'x'.repeat(500) });
    expect(out).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
    expect(out.startsWith("mfa.user_disabled: Desactive 'par' l'equipe securite")).toBe(true);
    expect(out.length).toBeLessThanOrEqual('mfa.user_disabled: '.length + 200);
  });
});

describe('Passcode page', () => {
  const urls = { stylesheet: '/idp/assets/login.css', portal: 'https://localhost:8443/' };

  it('escapes what it shows and has no inline script or style', () => {
    const page = secondFactorPage(urls, { action: '/idp/interaction/abc/verify', username: '<b>x</b>@example.com', error: '<i>no</i>' });
    expect(page).toContain('&lt;b&gt;x&lt;/b&gt;@example.com');
    expect(page).toContain('&lt;i&gt;no&lt;/i&gt;');
    expect(page).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    expect(page).toContain('role="alert"');
  });

  describe('puts the default method first, with the focus', () => {
    const model = {
      action: '/idp/interaction/abc/verify',
      username: 'x@example.com',
      webauthn: { optionsUrl: '/idp/interaction/abc/webauthn/options', action: '/idp/interaction/abc/webauthn' },
      push: { action: '/idp/interaction/abc/push', devices: [{ id: 'p1', name: 'Pixel 8' }] },
    };
    const positions = (page: string) => ({
      passcode: page.indexOf('id="passcode"'),
      push: page.indexOf('Send a push to'),
      webauthn: page.indexOf('id="webauthn-start"'),
    });
    const autofocused = (page: string) => page.match(/<[^>]*\sautofocus[^>]*>/g) ?? [];

    it('the passcode field when nothing is said', () => {
      const page = secondFactorPage(urls, model);
      const at = positions(page);
      expect(at.passcode).toBeLessThan(at.push);
      expect(at.push).toBeLessThan(at.webauthn);
      expect(autofocused(page)).toEqual([expect.stringContaining('id="passcode"')]);
    });

    it('the passkey', () => {
      const page = secondFactorPage(urls, { ...model, first: 'webauthn' });
      const at = positions(page);
      expect(at.webauthn).toBeLessThan(at.passcode);
      expect(at.passcode).toBeLessThan(at.push);
      expect(autofocused(page)).toEqual([expect.stringContaining('id="webauthn-start"')]);
    });

    it('the push', () => {
      const page = secondFactorPage(urls, { ...model, first: 'push' });
      const at = positions(page);
      expect(at.push).toBeLessThan(at.passcode);
      expect(autofocused(page)).toEqual([expect.stringContaining('<button type="submit" autofocus>')]);
    });

    it('the passcode field when the default is not on the page', () => {
      const { webauthn: _webauthn, ...withoutPasskey } = model;
      const page = secondFactorPage(urls, { ...withoutPasskey, first: 'webauthn' });
      expect(autofocused(page)).toEqual([expect.stringContaining('id="passcode"')]);
    });
  });
});
