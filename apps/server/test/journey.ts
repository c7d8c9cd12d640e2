import type { AppConfig } from '../src/config.js';
import {
  authorizeUrl,
  followToClient,
  formAction,
  verifyFormAction,
  isInteractionRedirect,
  location,
  pkce,
  TestBrowser,
  tokenRequest,
  type Client,
  type HttpResponse,
  type TokenResponse,
  type Transport,
} from './oidc-test-client.js';

/**
 * Test support for the operations suites: the SPA's sign-in at the embedded provider over any
 * transport (app.inject or a real TLS socket), split in steps so that a step can run on another
 * instance, and a recorder of every response (to look for secrets in logs against what was sent).
 */

export const clientOf = (config: AppConfig): Client => {
  if (config.idp.mode !== 'embedded') throw new Error('the embedded provider is needed');
  return { issuer: config.idp.issuer, clientId: config.idp.clientId, redirectUri: config.publicUrl };
};

export const scopeOf = (config: AppConfig) =>
  config.idp.mode === 'embedded' ? `openid profile offline_access user.read ${config.idp.scope}` : '';

export interface PasswordStep {
  browser: TestBrowser;
  verifier: string;
  interaction: URL;
  afterPassword: HttpResponse;
}

/** Authorize → password page → password. */
export async function passwordStep(browser: TestBrowser, config: AppConfig, username: string, password: string): Promise<PasswordStep> {
  const client = clientOf(config);
  const { verifier, challenge } = pkce();
  const interaction = location(await browser.get(authorizeUrl(client, { scope: scopeOf(config), challenge })), config.publicUrl);
  const page = await browser.get(interaction);
  const action = formAction(page.body);
  if (!action?.endsWith('/login')) throw new Error(`no password form: ${page.status} ${page.body.slice(0, 200)}`);
  const afterPassword = await browser.post(new URL(action, interaction), { username, password });
  return { browser, verifier, interaction, afterPassword };
}

/** The Passcode page (after the password) and the answer to `code`. */
export async function secondFactorStep(
  browser: TestBrowser,
  config: AppConfig,
  afterPassword: HttpResponse,
  code: string,
): Promise<HttpResponse> {
  if (!isInteractionRedirect(afterPassword, config.publicUrl))
    throw new Error(`no second factor asked: ${afterPassword.status} ${afterPassword.body.slice(0, 200)}`);
  const url = location(afterPassword, config.publicUrl);
  const page = await browser.get(url);
  const action = verifyFormAction(page.body);
  if (page.status !== 200 || !action?.endsWith('/verify'))
    throw new Error(`no second-factor form: ${page.status} ${page.body.slice(0, 200)}`);
  return browser.post(new URL(action, url), { passcode: code });
}

/** Follows the provider back to the portal and redeems the authorization code. */
export async function redeem(
  browser: TestBrowser,
  config: AppConfig,
  res: HttpResponse,
  verifier: string,
): Promise<{ code: string; tokens: TokenResponse }> {
  const client = clientOf(config);
  const back = await followToClient(browser, res, client, config.publicUrl);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no authorization code: ${back.href}`);
  const tokenRes = await tokenRequest(browser, client, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: config.publicUrl,
    code_verifier: verifier,
  });
  if (tokenRes.status !== 200) throw new Error(`token endpoint answered ${tokenRes.status}: ${tokenRes.body}`);
  return { code, tokens: JSON.parse(tokenRes.body) as TokenResponse };
}

/** Wraps a transport so that every Set-Cookie value the server sent is kept. */
export function recordingCookies(transport: Transport): { transport: Transport; cookieValues: string[] } {
  const cookieValues: string[] = [];
  return {
    cookieValues,
    transport: async (req) => {
      const res = await transport(req);
      const set = res.headers['set-cookie'];
      for (const line of Array.isArray(set) ? set : set ? [set] : []) {
        const value = line.split(';')[0]!.split('=').slice(1).join('=').trim();
        if (value.length >= 8) cookieValues.push(value);
      }
      return res;
    },
  };
}
