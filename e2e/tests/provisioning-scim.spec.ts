import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { answerPasscode, hasAuthenticator, nextPasscode, signInAt } from './helpers';
import { chooseOption, enrolAuthenticator, pressButton, typeInto, watchCsp } from './support/portal';

/**
 * Provisioning end to end (issue 15), on a portal of its own with an empty directory (DEMO_DATA=false),
 * SCIM on (SCIM_TOKEN) and the `pass` first-device policy: staff are created over SCIM with passwords
 * (helpdesk and Solution Administrator roles from SCIM groups); a new hire signs in at the embedded
 * identity provider, cannot add a first device without an enrolment pass, adds it with a pass the
 * helpdesk issued, is set inactive over SCIM and sees the account-disabled page; deleted over SCIM,
 * their account and devices are gone and the audit log still shows the history.
 */
const PORT = Number(process.env.E2E_PORT ?? 8643) + 61;
const BASE = `https://localhost:${PORT}/`;
const SCIM_TOKEN = 'e2e-scim-token-0123456789-abcdefghijklmnopqrstuvwxyz';
const serverEntry = path.join(import.meta.dirname, '..', '..', 'apps', 'server', 'src', 'server.ts');
const passCommand = path.join(import.meta.dirname, '..', '..', 'apps', 'server', 'src', 'cli', 'enrolment-pass.ts');
const NEWHIRE = 'newhire@example.org';
const DESK = 'desk@example.org';
const BOSS = 'boss@example.org';
const PASSWORDS = { [NEWHIRE]: 'Newhire-Pa55word!', [DESK]: 'Desk-Pa55word!', [BOSS]: 'Boss-Pa55word!' } as const;

let dataDir: string;
let server: ChildProcess | undefined;

/** A SCIM request as Entra's provisioning service sends it. */
function scim(method: string, pathname: string, body?: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = https.request(
      `${BASE}scim/v2${pathname}`,
      {
        method,
        rejectUnauthorized: false,
        headers: {
          authorization: `Bearer ${SCIM_TOKEN}`,
          ...(payload ? { 'content-type': 'application/scim+json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** The portal's configuration: the server and the operator's command read the same. */
const portalEnv = () => ({
  ...process.env,
  PORT: String(PORT),
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
  DEMO_DATA: 'false',
  SCIM_TOKEN,
  SCIM_GROUP_HELPDESK: 'MFA Helpdesk',
  SCIM_GROUP_SOLUTION_ADMIN: 'MFA Solution Admins',
  FIRST_DEVICE_POLICY: 'pass',
});

async function stopServer(): Promise<void> {
  const child = server;
  server = undefined;
  if (child && child.exitCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }
}

/** `npm run enrolment-pass -- <upn> --reason …`, as the operator runs it on the portal's machine; its output. */
function operatorIssuesPass(upn: string, reason: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', passCommand, upn, '--reason', reason],
      { cwd: path.dirname(serverEntry), env: portalEnv(), timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

async function startServer(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: path.dirname(serverEntry),
    env: portalEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  server = child;
  const deadline = Date.now() + 170_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the portal exited (${child.exitCode}): ${output}`);
    const ready = await new Promise<number>((resolve) => {
      const req = https.get(`${BASE}settings/APIInfo`, { rejectUnauthorized: false, timeout: 2_000 }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(0));
    });
    if (ready === 200) return;
    if (Date.now() > deadline) throw new Error(`the portal did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function signedIn(browser: Browser, upn: keyof typeof PASSWORDS, at = '/'): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE, ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.goto(at);
  await signInAt(page, upn, PASSWORDS[upn], { secondFactor: 'none' });
  // Once they have an authenticator app, the identity provider asks for its code.
  if (hasAuthenticator(upn)) await answerPasscode(page, await nextPasscode(upn));
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  return page;
}

const user = (userName: string, given: string, extra: Record<string, unknown> = {}) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  externalId: given.toLowerCase(),
  active: true,
  displayName: `${given} Example`,
  name: { givenName: given, familyName: 'Example' },
  emails: [{ primary: true, type: 'work', value: userName }],
  password: PASSWORDS[userName as keyof typeof PASSWORDS],
  ...extra,
});

test.beforeAll(async () => {
  // Starting a second portal (tsx, migrations) takes a while on a busy machine.
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-e2e-scim-'));
  await startServer();
});

test.afterAll(async () => {
  await stopServer();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a SCIM user enrols the first device with an enrolment pass, is deactivated, then deleted with the history kept', async ({
  browser,
}) => {
  test.setTimeout(420_000);
  let newhireId = '';

  await test.step('the directory provisions staff and groups over SCIM', async () => {
    const desk = await scim('POST', '/Users', user(DESK, 'Desk', { roles: [{ value: 'Staff.Member' }] }));
    const boss = await scim('POST', '/Users', user(BOSS, 'Boss', { roles: [{ value: 'Staff.Member' }] }));
    const hire = await scim('POST', '/Users', user(NEWHIRE, 'Newhire', { roles: [{ value: 'Staff.Member' }] }));
    expect([desk.status, boss.status, hire.status]).toEqual([201, 201, 201]);
    newhireId = hire.json.id;
    expect((await scim('POST', '/Groups', { displayName: 'MFA Helpdesk', members: [{ value: desk.json.id }] })).status).toBe(201);
    expect((await scim('POST', '/Groups', { displayName: 'MFA Solution Admins', members: [{ value: boss.json.id }] })).status).toBe(201);
  });

  const passes: Partial<Record<typeof DESK | typeof BOSS, string>> = {};
  await test.step('the operator issues the first administrators their passes from the command line', async () => {
    // Administration needs a second factor, and nobody on this new portal has one yet: the operator
    // bootstraps, with the portal stopped (PGlite serves one process at a time).
    await stopServer();
    const refused = await operatorIssuesPass('nobody@example.org', 'not provisioned');
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain("not in the portal's directory");
    for (const upn of [DESK, BOSS] as const) {
      const issued = await operatorIssuesPass(upn, 'First administrators of a new portal');
      expect(issued.code, issued.out).toBe(0);
      passes[upn] = /\b([A-Z2-9]{4}(?:-[A-Z2-9]{4}){3})\b/.exec(issued.out)?.[1];
      expect(passes[upn]).toBeTruthy();
    }
    await startServer();
  });

  await test.step('the helpdesk member adds a first device with the pass, then signs in with it', async () => {
    const desk = await signedIn(browser, DESK);
    // A password alone does not open administration.
    await desk.goto(`/admin/users/${NEWHIRE}/`);
    await expect(desk.getByText('Administration needs a sign-in with a second factor.', { exact: false }).first()).toBeVisible();
    await expect(desk.getByRole('heading', { level: 1, name: 'Newhire Example' })).toHaveCount(0);
    await desk.goto('/devices/add');
    await desk.getByRole('textbox', { name: 'Enrolment pass' }).fill(passes[DESK]!);
    await desk.getByRole('button', { name: 'Continue' }).click();
    await expect(desk.getByRole('link', { name: 'Add an authenticator app' })).toBeVisible();
    await enrolAuthenticator(desk, DESK, 'Desk phone');
    await desk.context().close();
  });

  const hire = await signedIn(browser, NEWHIRE);
  const csp = watchCsp(hire);

  await test.step('without a pass, the new hire cannot add a first device', async () => {
    await hire.goto('/devices/add');
    await expect(hire.getByRole('heading', { name: 'Enter your enrolment pass' })).toBeVisible();
    await hire.goto('/devices/add/authenticator');
    await pressButton(hire, 'Show my QR code');
    await expect(hire.getByText('To add your first device you need an enrolment pass. Ask the service desk for one.')).toBeVisible();
    await expect(hire.getByTestId('totp-secret')).toHaveCount(0);
  });

  let pass = '';
  await test.step('the helpdesk (by SCIM group) issues an enrolment pass, shown once', async () => {
    const desk = await signedIn(browser, DESK, `/admin/users/${NEWHIRE}/`);
    await expect(desk.getByRole('heading', { level: 1, name: 'Newhire Example' })).toBeVisible();
    await expect(desk.getByText("The organisation's directory (SCIM provisioning)")).toBeVisible();
    // Verify, then issue: the new hire has no device yet, so the helpdesk records how it checked who
    // they are (a photo ID on a video call) with the call's ticket; then the pass can be issued.
    const region = desk.getByRole('region', { name: 'Verify the caller' });
    const manual = desk.locator('form#verify-manually');
    await typeInto(desk, 'Ticket reference', 'INC-2001', region);
    await chooseOption(desk, 'How you verified them', 'photo ID on a video call', manual);
    await pressButton(desk, 'Record the verification', manual);
    await expect(region.getByText(/Verified by photo ID on a video call at .+ \(ticket INC-2001\)\.$/)).toBeVisible();
    await desk.getByRole('button', { name: 'Issue an enrolment pass' }).click();
    const dialog = desk.getByRole('dialog', { name: `Issue an enrolment pass for ${NEWHIRE}` });
    await dialog.getByLabel('Reason').fill('New starter, identity checked on a video call');
    await dialog.getByLabel('Ticket reference').fill('INC-2001');
    await dialog.getByRole('button', { name: 'Issue the pass' }).click();
    const shown = desk.locator('code.activation-link');
    await expect(shown).toHaveText(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    pass = (await shown.textContent()) ?? '';
    await desk.context().close();
  });

  await test.step('with the pass, the new hire adds an authenticator app', async () => {
    await hire.goto('/devices/add');
    await hire.getByRole('textbox', { name: 'Enrolment pass' }).fill(pass);
    await hire.getByRole('button', { name: 'Continue' }).click();
    await expect(hire.getByRole('link', { name: 'Add an authenticator app' })).toBeVisible();
    await enrolAuthenticator(hire, NEWHIRE, 'First phone');
    await expect(hire.getByRole('article', { name: 'First phone' })).toBeVisible();
  });

  await test.step('set inactive over SCIM, the new hire sees the account-disabled page', async () => {
    const patched = await scim('PATCH', `/Users/${newhireId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(patched.status).toBe(200);
    await hire.goto('/');
    await expect(hire).toHaveURL(/\/error\/accountdisabled$/);
    await expect(hire.getByRole('heading', { level: 1, name: 'Your account is disabled' })).toBeVisible();
    expect(csp.violations()).toEqual([]);
    await hire.context().close();
  });

  await test.step('deleted over SCIM: account and devices gone, history kept in the audit log', async () => {
    expect((await scim('DELETE', `/Users/${newhireId}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${newhireId}`)).status).toBe(404);
    const boss = await signedIn(browser, BOSS);
    await boss.goto('/devices/add');
    await boss.getByRole('textbox', { name: 'Enrolment pass' }).fill(passes[BOSS]!);
    await boss.getByRole('button', { name: 'Continue' }).click();
    await enrolAuthenticator(boss, BOSS, 'Boss phone');
    await boss.context().close();
    const admin = await signedIn(browser, BOSS, `/admin/users/${NEWHIRE}/`);
    await expect(admin.getByText('No such user is known to the portal or the MFA provider.')).toBeVisible();
    await admin.goto('/admin/audit');
    await admin.getByLabel('About', { exact: true }).fill(NEWHIRE);
    await admin.getByRole('button', { name: 'Show events' }).click();
    const table = admin.getByRole('table');
    for (const action of [
      'scim.user.create',
      'admin.user.issue_enrolment_pass',
      'enrolment_pass.redeem',
      'device.enrol_confirm',
      'scim.user.deactivate',
      'scim.user.delete',
    ]) {
      await expect(table.getByText(action, { exact: false }).first()).toBeVisible();
    }
    await admin.context().close();
  });
});
