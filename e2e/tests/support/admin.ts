import { expect, type Page } from '@playwright/test';
import { tokenName } from '../helpers';
import { tabTo, typeInto } from './portal';

/** Helpers of the administration journeys (admin-*.spec.ts). */

/** Starts listening for the portal's next administration API call; resolves to its bearer token. */
export function bearerOfNextAdminCall(page: Page): Promise<string> {
  return page.waitForRequest((r) => r.url().includes('/api/admin/')).then((r) => (r.headers().authorization ?? '').replace(/^Bearer /, ''));
}

/** Opens the administration area from the main navigation and searches for `query`. */
export async function searchUser(page: Page, query: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Find a user' })).toBeVisible();
  await typeInto(page, 'Name, sign-in name or e-mail', query);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('table', { name: 'Search results' })).toBeVisible();
}

/** Opens the recent activity on a user's page (folded until asked for), from the keyboard. */
export async function showActivity(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: /^Show the (\d+ )?latest events?$/ });
  await tabTo(page, toggle);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Hide the events' })).toBeVisible();
}

/** Fills the reason and ticket every administrative change needs (in `scope`, e.g. a dialog). */
export async function justify(page: Page, reason: string, ticket: string, scope = page.locator('body')): Promise<void> {
  await typeInto(page, 'Reason', reason, scope);
  await typeInto(page, 'Ticket reference', ticket, scope);
}

/**
 * How the administrator's device choices name a demo hardware token: "Duo D100 token (D100-0001)" (its
 * name and serial), or on Duo, whose tokens are named by type and serial, just that name.
 */
export const tokenChoice = (serial: string): string => tokenName(serial, `Duo D100 token (${serial})`);
