/**
 * A phone in the terminal, for demos on one computer (a demo tool: its device key sits in a plain file).
 *
 *   npm run demo:phone -- '<activation link>'            activate: the link the portal shows under
 *                                                         "Add a device" → Portal Authenticator
 *   npm run demo:phone -- bob@example.com [--url URL]    listen: for each push, show what, where and when,
 *                                                         and ask for the number the browser shows
 *                                                         (`d` denies; after a denial `r` reports it)
 *
 * The activated phone is kept in `.demo-phone/<upn>.json` (git-ignored): its device key as a JWK and its
 * passcode seed. Anyone who can read that file can approve pushes for the account: use it with demo
 * accounts only. `--url` points a saved phone at another address of the same portal (the app's address,
 * or the portal's: `authenticator/` is added).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import type { PendingPushRequest } from '@mfa-portal/shared';
import { PhoneApiError, SoftwarePhone, type SavedPhone } from './lib/software-phone.js';

const DIR = path.join(import.meta.dirname, '..', '.demo-phone');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { url: { type: 'string' }, name: { type: 'string', default: 'Terminal phone' } },
});
const [arg] = positionals;
const fileOf = (upn: string) => path.join(DIR, `${upn.toLowerCase().replace(/[^a-z0-9@._-]/g, '_')}.json`);

const KIND: Record<PendingPushRequest['kind'], string> = {
  sign_in: 'Sign-in',
  step_up: 'Confirm a change',
  device_test: 'Check that this phone works',
  helpdesk_check: 'Helpdesk identity check',
};

async function activate(link: string): Promise<void> {
  const phone = await SoftwarePhone.create({ extractable: true });
  const res = await phone.activate(link, { deviceName: values.name!, platform: 'other' });
  fs.mkdirSync(DIR, { recursive: true, mode: 0o700 });
  const file = fileOf(res.account.upn);
  fs.writeFileSync(file, `${JSON.stringify(phone.save(), null, 2)}\n`, { mode: 0o600 });
  console.log(`Activated for ${res.account.displayName} <${res.account.upn}> as “${values.name}”.`);
  console.log(`Kept in ${path.relative(process.cwd(), file)} (a demo tool: the key is in that file).`);
  console.log(`Passcode now: ${phone.passcode()}`);
  console.log(`Listen for pushes: npm run demo:phone -- ${res.account.upn}`);
}

function describe(r: PendingPushRequest): string {
  const where = [r.browser && r.os ? `${r.browser} on ${r.os}` : (r.browser ?? r.os), r.ipAddress, r.location].filter(Boolean).join(' · ');
  const lines = [
    '',
    `▶ ${KIND[r.kind]} for ${r.account}`,
    `  Application: ${r.application}`,
    ...(where ? [`  From: ${where}`] : []),
    ...(r.requestedBy ? [`  Asked by: ${r.requestedBy}`] : []),
    `  At: ${new Date(r.createdAt).toLocaleString()} (answer before ${new Date(r.expiresAt).toLocaleTimeString()})`,
  ];
  return lines.join('\n');
}

async function listen(upn: string): Promise<void> {
  const file = fileOf(upn);
  if (!fs.existsSync(file)) throw new Error(`no phone for ${upn} in ${DIR}: activate one first with its activation link`);
  const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedPhone;
  let appUrl: string | undefined;
  if (values.url) appUrl = new URL(values.url.replace(/\/?$/, '/')).toString().replace(/(?<!authenticator\/)$/, 'authenticator/');
  const phone = await SoftwarePhone.restore(saved, appUrl ? { appUrl } : {});
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const queue: PendingPushRequest[] = [];
  const ended = new Set<string>();
  // Shared with the stream's loop below: the push being asked about, and how to wake the asking loop.
  const now: { current: { id: string; abort: AbortController } | null; wake: (() => void) | null } = { current: null, wake: null };
  console.log(`Listening for pushes to ${phone.account.upn} at ${phone.appUrl} (Ctrl+C to stop). Passcode now: ${phone.passcode()}`);

  // The stream: every pending push at once, then new ones; `closed` when one ends elsewhere.
  void (async () => {
    for (;;) {
      try {
        for await (const e of phone.events()) {
          if (e.event === 'request') queue.push(e.request);
          else {
            ended.add(e.id);
            if (now.current?.id === e.id) now.current.abort.abort();
          }
          now.wake?.();
        }
      } catch (err) {
        if (err instanceof PhoneApiError && err.status === 401) {
          console.error(`\nThe portal no longer knows this phone (${err.code}): activate it again.`);
          process.exit(1);
        }
        console.error(`\n(stream lost: ${err instanceof Error ? err.message : String(err)}; reconnecting)`);
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
  })();

  for (;;) {
    const r = queue.shift();
    if (!r) {
      await new Promise<void>((resolve) => (now.wake = resolve));
      continue;
    }
    if (ended.has(r.id)) continue;
    console.log(describe(r));
    const current = { id: r.id, abort: new AbortController() };
    now.current = current;
    try {
      for (;;) {
        const typed = (await rl.question('  Type the number the browser shows, or d to deny: ', { signal: current.abort.signal })).trim();
        if (/^\d{2}$/.test(typed)) {
          await phone.approve(r.id, typed);
          console.log('  ✔ Approved.');
          break;
        }
        if (/^d(eny)?$/i.test(typed)) {
          const res = await phone.deny(r.id);
          console.log('  ✖ Denied.');
          if (res.reportable) {
            const more = (await rl.question("  r to report “This wasn't me”, Enter to leave it: ")).trim();
            if (/^r/i.test(more)) {
              await phone.report(r.id);
              console.log('  Reported: the security contact is told.');
            }
          }
          break;
        }
        console.log('  Two digits, or d.');
      }
    } catch (err) {
      if (current.abort.signal.aborted) console.log('\n  (answered elsewhere, or it timed out)');
      else if (err instanceof PhoneApiError) console.log(`  Refused: ${err.code ?? err.status}`);
      else throw err;
    } finally {
      now.current = null;
    }
  }
}

if (!arg || arg === '--help' || arg === '-h') {
  console.log("Usage: npm run demo:phone -- '<activation link>'   |   npm run demo:phone -- <upn> [--url <portal url>]");
  process.exit(arg ? 0 : 1);
}
try {
  if (/#activate=/.test(arg)) await activate(arg);
  else await listen(arg);
} catch (err) {
  console.error(err instanceof PhoneApiError ? `${err.message} ${JSON.stringify(err.body)}` : err instanceof Error ? err.message : err);
  process.exit(1);
}
