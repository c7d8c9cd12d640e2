import { expect, test } from '@playwright/test';
import { expectAccessible, watchCsp } from '../tests/support/portal';
import { entra, openSignedIn, signInAtEntra } from './entra';

/**
 * What a person sees when Entra refuses: consent not granted (AADSTS65001), not assigned to the
 * application (AADSTS50105), and interaction required in the middle of a session (AADSTS50076, e.g.
 * a Conditional Access policy now asks for a second factor). Entra answers the first two to the
 * portal's redirect address with error and error_description; the shell explains them in plain
 * English on the unauthorized page, with the code for the service desk.
 */
const UNAUTHORIZED = 'You are not allowed to use this portal';

test('consent not granted: the unauthorized page says an administrator must grant it', async ({ page }) => {
  await page.goto('/');
  await signInAtEntra(page, 'consent@example.com');
  await expect(page.getByRole('heading', { level: 1, name: UNAUTHORIZED })).toBeVisible();
  await expect(page.getByText(/has not yet allowed this portal to use your Microsoft sign-in/)).toBeVisible();
  await expect(page.getByText('Error code for the service desk: consent_required')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in again' })).toBeVisible();
  await expectAccessible(page, 'the consent refusal');
});

test('not assigned to the application: the unauthorized page says to ask for access', async ({ page }) => {
  await page.goto('/');
  await signInAtEntra(page, 'unassigned@example.com');
  await expect(page.getByRole('heading', { level: 1, name: UNAUTHORIZED })).toBeVisible();
  await expect(page.getByText(/has not been given access to this portal/)).toBeVisible();
  await expect(page.getByText('Error code for the service desk: interaction_required')).toBeVisible();
});

test('interaction required during a session: the portal asks to sign in again, and that works', async ({ page }) => {
  // The portal's content security policy lets MSAL reach the tenant (connect-src) and nothing breaks it.
  const csp = watchCsp(page);
  await openSignedIn(page, 'dave@example.com');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Dave');
  await entra.refuse('dave@example.com', 'interaction_required');
  try {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Please sign in again' });
    await expect(alert).toContainText('Your sign-in has expired. Please sign in again.');
    // The person confirms who they are at Entra (the stand-in stops asking), then signs in again.
    await entra.refuse('dave@example.com', null);
    await alert.getByRole('button', { name: 'Sign in again' }).click();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  } finally {
    await entra.refuse('dave@example.com', null);
  }
  expect(csp.violations()).toEqual([]);
});
