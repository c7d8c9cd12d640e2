import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'portal-demo';

/**
 * The MFA provider of the portal under test: `duo` with e2e/playwright.duo.config.ts (the Duo stand-in),
 * `builtin` otherwise. Journeys tagged `@both` run on both and read this where Duo differs.
 */
export const MFA_PROVIDER: 'builtin' | 'duo' = process.env.E2E_MFA_PROVIDER === 'duo' ? 'duo' : 'builtin';
export const onDuo = MFA_PROVIDER === 'duo';

/**
 * How the portal names a hardware token: the name given (the builtin demo's tokens are called
 * "Duo D100 token"), or on Duo its type and serial (Duo's tokens have no name).
 */
export const tokenName = (serial: string, given = 'Duo D100 token'): string => (onDuo ? `Duo D100 (${serial})` : given);

export interface SignInOptions {
  /**
   * The second-factor page (Passcode), when the identity provider shows it after the password:
   * 'auto' (default) answers it with the next code of the user's known authenticator (see
   * {@link nextPasscode}), only when the password is the demo password; 'none' leaves it to the test.
   */
  secondFactor?: 'auto' | 'none';
}

/** Fills the embedded identity provider's login page (reached by the portal's own redirect). */
export async function signInAt(page: Page, username: string, password = DEMO_PASSWORD, opts: SignInOptions = {}): Promise<void> {
  await page.waitForURL(/\/idp\/interaction\//);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if ((opts.secondFactor ?? 'auto') === 'auto' && password === DEMO_PASSWORD && hasAuthenticator(username)) {
    await answerPasscode(page, await nextPasscode(username));
  }
}

/** Answers the identity provider's second-factor page (the field labelled Passcode, button Verify). */
export async function answerPasscode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Passcode').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** Opens `path` in the portal and signs in as `username` when the identity provider asks. */
export async function openSignedIn(page: Page, username: string, path = '/'): Promise<void> {
  await page.goto(path);
  await signInAt(page, username);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

// --- one-time passwords (RFC 4226 / RFC 6238), computed by the test as an app or a token would ---

const TOTP_PERIOD_MS = 30_000;

export function hotp(secret: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, '0');
}

export function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of text.replace(/[\s=]/g, '').toUpperCase()) {
    const index = alphabet.indexOf(ch);
    if (index < 0) throw new Error(`not Base32: ${ch}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export const totpStep = (at = Date.now()) => Math.floor(at / TOTP_PERIOD_MS);
export const totpAt = (secretBase32: string, step: number) => hotp(base32Decode(secretBase32), step);

/**
 * Seed of a demo Duo D100 token of the embedded mode: published on purpose, see the server's
 * `mfa/builtin/demo-tokens.ts` (`demoTokenSeed`), which this mirrors.
 */
export function demoTokenSeed(serial: string): Buffer {
  return createHmac('sha1', 'mfa-portal demo Duo D100 token (not a secret)').update(serial.toUpperCase()).digest();
}

/**
 * Base32 secret of a demo authenticator app: published on purpose, see the server's
 * `demo/demo-authenticators.ts` (`demoAuthenticatorSecret`), which this mirrors.
 */
export function demoAuthenticatorSecret(upn: string, name: string): string {
  const bytes = createHmac('sha1', 'mfa-portal demo authenticator app (not a secret)').update(`${upn}\n${name}`).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The authenticators the tests know for this run, by user: an authenticator app (TOTP secret and the
 * last step used) or a demo hardware token (serial and its next counter). Kept in a file in the
 * project's output directory, which Playwright empties at the start of every run, as the server
 * starts on fresh data every run: codes are never reused, even when a worker restarts.
 */
export type KnownAuthenticator = { kind: 'totp'; secret: string; lastStep: number } | { kind: 'hotp'; serial: string; nextCounter: number };

/** Demo staff whose second factor the tests can give from the start: the demo tokens they hold. */
const DEMO_AUTHENTICATORS: Record<string, KnownAuthenticator> = {
  'bob@example.com': { kind: 'hotp', serial: 'D100-0001', nextCounter: 0 },
  'helpdesk@example.com': { kind: 'hotp', serial: 'D100-0005', nextCounter: 0 },
  'admin@example.com': { kind: 'hotp', serial: 'D100-0006', nextCounter: 0 },
};

const storeFile = () => path.join(test.info().project.outputDir, 'e2e-authenticators.json');

function readStore(): Record<string, KnownAuthenticator> {
  try {
    return { ...DEMO_AUTHENTICATORS, ...(JSON.parse(fs.readFileSync(storeFile(), 'utf8')) as Record<string, KnownAuthenticator>) };
  } catch {
    return { ...DEMO_AUTHENTICATORS };
  }
}

function writeStore(store: Record<string, KnownAuthenticator>): void {
  fs.mkdirSync(path.dirname(storeFile()), { recursive: true });
  fs.writeFileSync(storeFile(), JSON.stringify(store, null, 2));
}

export function hasAuthenticator(username: string): boolean {
  return readStore()[username.toLowerCase()] !== undefined;
}

/** Records the authenticator app a test enrolled for `username` (the step of its confirming code). */
export function rememberAuthenticator(username: string, authenticator: KnownAuthenticator): void {
  writeStore({ ...readStore(), [username.toLowerCase()]: authenticator });
}

/**
 * The next code of the user's known authenticator, marked used. A TOTP code is for the current step,
 * or the next one when the current was used (the server accepts one step either side); when both
 * were used, this waits for the next step.
 */
export async function nextPasscode(username: string): Promise<string> {
  const key = username.toLowerCase();
  const store = readStore();
  const known = store[key];
  if (!known) throw new Error(`no known authenticator for ${username}`);
  let code: string;
  if (known.kind === 'hotp') {
    code = hotp(demoTokenSeed(known.serial), known.nextCounter);
    store[key] = { ...known, nextCounter: known.nextCounter + 1 };
  } else {
    const step = Math.max(known.lastStep + 1, totpStep());
    while (totpStep() + 1 < step) await new Promise((resolve) => setTimeout(resolve, 250));
    code = totpAt(known.secret, step);
    store[key] = { ...known, lastStep: step };
  }
  writeStore(store);
  return code;
}
