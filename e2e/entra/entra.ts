import fs from 'node:fs';
import { expect, request, type Page } from '@playwright/test';

/** Helpers of the journeys in Entra mode (e2e/playwright.entra.config.ts). */

export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'portal-demo';

/** Fills the Entra stand-in's sign-in form (reached by MSAL's redirect to the tenant's authorize endpoint). */
export async function signInAtEntra(page: Page, username: string, password = DEMO_PASSWORD): Promise<void> {
  await page.waitForURL(/\/oauth2\/v2\.0\/authorize/);
  await page.getByLabel('Email, phone, or Skype').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens `path` in the portal and signs in as `username` at Entra. */
export async function openSignedIn(page: Page, username: string, path = '/'): Promise<void> {
  await page.goto(path);
  await signInAtEntra(page, username);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

export interface IssuedToken {
  kind: 'api' | 'graph';
  grant: 'authorization_code' | 'refresh_token';
  iat: number;
  exp: number;
}

/** The stand-in's control routes (what an Entra administrator does while someone uses the portal). */
async function control(method: 'GET' | 'POST', path: string, data?: unknown): Promise<unknown> {
  const file = process.env.ENTRA_STANDIN_CONTROL_FILE;
  if (!file) throw new Error('ENTRA_STANDIN_CONTROL_FILE is not set (run with e2e/playwright.entra.config.ts)');
  const { url, token } = JSON.parse(fs.readFileSync(file, 'utf8')) as { url: string; token: string };
  const ctx = await request.newContext({ ignoreHTTPSErrors: true });
  try {
    const res = await ctx.fetch(`${url}/_control${path}`, {
      method,
      headers: { 'x-standin-control': token },
      ...(data === undefined ? {} : { data }),
    });
    if (!res.ok()) throw new Error(`stand-in control ${path} answered ${res.status()}`);
    return res.status() === 204 ? null : await res.json();
  } finally {
    await ctx.dispose();
  }
}

export const entra = {
  refuse: (username: string, refusal: 'consent_required' | 'not_assigned' | 'interaction_required' | null) =>
    control('POST', `/users/${encodeURIComponent(username)}/refusal`, { refusal }),
  issued: async (username: string) => (await control('GET', `/users/${encodeURIComponent(username)}/issued`)) as IssuedToken[],
};
