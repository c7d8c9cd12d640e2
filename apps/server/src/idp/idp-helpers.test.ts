import { describe, expect, it } from 'vitest';
import { stripOfflineAccessFromRefresh } from './mount.js';
import { hashPassword, verifyPassword } from './password.js';
import { apiScopeName } from './provider.js';
import { escapeHtml, loginPage, logoutPage } from './views.js';

const urls = { stylesheet: '/idp/assets/login.css', portal: 'https://localhost:8443/' };

describe('password hashes', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('portal-demo');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('portal-demo', hash)).toBe(true);
    expect(await verifyPassword('portal-demo ', hash)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('never matches (nor throws on) a malformed stored hash', async () => {
    for (const stored of ['', 'plain', 'scrypt$1$1$1$$', 'bcrypt$x$y$z$a$b', 'scrypt$99999999$8$1$c2FsdA$aGFzaA']) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
  });
});

describe('refresh requests from MSAL', () => {
  it('drop offline_access from the scope of a refresh_token grant', () => {
    const body = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: 'r',
      scope: 'api://mfa-portal/access_as_user openid offline_access',
    });
    const out = new URLSearchParams(stripOfflineAccessFromRefresh(body.toString()));
    expect(out.get('scope')).toBe('api://mfa-portal/access_as_user openid');
    expect(out.get('refresh_token')).toBe('r');
  });

  it('remove the scope parameter when offline_access was all of it', () => {
    const out = stripOfflineAccessFromRefresh('grant_type=refresh_token&refresh_token=r&scope=offline_access');
    expect(new URLSearchParams(out).has('scope')).toBe(false);
  });

  it('leave other grants, scopes without offline_access and duplicated scopes alone', () => {
    expect(stripOfflineAccessFromRefresh('grant_type=authorization_code&scope=offline_access')).toBeUndefined();
    expect(stripOfflineAccessFromRefresh('grant_type=refresh_token&scope=openid')).toBeUndefined();
    expect(stripOfflineAccessFromRefresh('grant_type=refresh_token&scope=offline_access&scope=openid')).toBeUndefined();
  });
});

describe('API scope names', () => {
  it('take the part after the audience', () => {
    expect(apiScopeName('api://mfa-portal/access_as_user', 'api://mfa-portal')).toBe('access_as_user');
    expect(apiScopeName('openid', 'api://mfa-portal')).toBe('openid');
  });
});

describe('identity provider pages', () => {
  it('escape every interpolated value', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\``)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;');
    const page = loginPage(urls, {
      action: '/idp/interaction/a"b/login',
      username: '<img src=x onerror=alert(1)>',
      error: 'Incorrect username or password.',
    });
    expect(page).not.toContain('<img');
    expect(page).toContain('action="/idp/interaction/a&quot;b/login"');
    expect(page).toContain('role="alert"');
    expect(page).toContain('aria-invalid="true"');
  });

  it('offer a Sign out button bound to the provider form on the logout page', () => {
    const page = logoutPage(urls, '<form id="op.logoutForm" method="post" action="/idp/session/end/confirm"></form>');
    expect(page).toContain('form="op.logoutForm" name="logout" value="yes"');
    expect(page).toContain('>Sign out</button>');
    expect(page).not.toMatch(/<script|<style/);
  });
});
