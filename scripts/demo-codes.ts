/**
 * Codes of the demo Duo D100 tokens and of the demo authenticator apps (embedded mode with the builtin
 * provider only; their seeds are public, they protect nothing). A real D100 shows the next code each
 * time its button is pressed: use these in order, one per sign-in or verification, as if pressing the
 * button. An authenticator app shows the code of the current 30 seconds: the one printed now.
 * `npm run demo:codes [-- SERIAL|USER] [COUNT]`
 */
import { DEMO_AUTHENTICATORS, demoAuthenticatorSecret } from '../apps/server/src/demo/demo-authenticators.js';
import { DEMO_TOKEN_SERIALS, demoTokenSeed } from '../apps/server/src/demo/demo-tokens.js';
import { hotpCode, totpCode } from '../apps/server/src/mfa/common/otp.js';

const HOLDERS: Record<string, string> = {
  'D100-0001': 'bob@example.com',
  'D100-0005': 'helpdesk@example.com',
  'D100-0006': 'admin@example.com',
  'D100-0007': 'grace@example.com',
};

const [which, countArg] = process.argv.slice(2);
const count = Math.min(100, Math.max(1, Number(countArg ?? 10) || 10));
const serials = DEMO_TOKEN_SERIALS.filter((s) => !which || s === which.toUpperCase() || HOLDERS[s] === which.toLowerCase());
const apps = DEMO_AUTHENTICATORS.filter((a) => !which || a.username === which.toLowerCase());
if (serials.length === 0 && apps.length === 0) {
  console.error(
    `No demo token matches "${which}". Try a serial (${DEMO_TOKEN_SERIALS.join(', ')}) or bob@example.com, helpdesk@example.com, admin@example.com.`,
  );
  process.exit(1);
}
for (const serial of serials) {
  const seed = demoTokenSeed(serial);
  const codes = Array.from({ length: count }, (_, i) => hotpCode(seed, i));
  console.log(`${serial} (${HOLDERS[serial] ?? 'in the inventory, free to claim'})`);
  console.log(`  ${codes.map((c, i) => `${i + 1}: ${c}`).join('   ')}`);
}
for (const app of apps) {
  console.log(
    `authenticator app “${app.name}” of ${app.username}: ${totpCode(demoAuthenticatorSecret(app.username, app.name), Date.now())} (now)`,
  );
}
console.log('\nUse the codes in order: the portal accepts a code up to 10 presses ahead of the last one used, never an earlier one.');
