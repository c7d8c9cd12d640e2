/**
 * `npm run test:e2e:all` (the end-to-end part of `npm test`): the builtin journeys in three thirds, the
 * Duo journeys and the Entra journeys, each a Playwright run with its own portal, ports and data, run
 * side by side in E2E_LANES lanes (default 2). Each third of the builtin journeys gets a fresh portal, as
 * each run always has; the journeys of one run still go one after another (they share its demo staff).
 *
 * Every line is printed as it comes, prefixed with its run's name; a summary at the end gives each run's
 * result and time. The exit code is 1 if any run failed. Extra arguments go to every Playwright run.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';

interface Run {
  name: string;
  args: string[];
  env: Record<string, string>;
}

const builtinPort = Number(process.env.E2E_PORT ?? 8643);
// Longest first, so the lanes end together: the Duo journeys, then the builtin journeys in three thirds,
// then the short Entra run. Ports: each third's portal is 300 above the one before (each also uses +25
// for mail, +57 for the audit-tamper portal, +58 for the demo walk and +61 for SCIM), clear of Duo's
// (8743) and Entra's (8843, 8844).
const builtinThird = (n: number): Run => ({
  name: `builtin ${n}/3`,
  args: ['-c', 'e2e/playwright.config.ts', `--shard=${n}/3`],
  env: { E2E_PORT: String(builtinPort + 300 * (n - 1)) },
});
const RUNS: Run[] = [
  { name: 'duo', args: ['-c', 'e2e/playwright.duo.config.ts'], env: {} },
  builtinThird(1),
  builtinThird(2),
  builtinThird(3),
  { name: 'entra', args: ['-c', 'e2e/playwright.entra.config.ts'], env: {} },
];
const LANES = Math.max(1, Math.min(RUNS.length, Number(process.env.E2E_LANES) || 2));
const extra = process.argv.slice(2);

function play(run: Run): Promise<{ run: Run; code: number; seconds: number }> {
  const t0 = performance.now();
  console.log(`[${run.name}] starting: playwright test ${[...run.args, ...extra].join(' ')}`);
  const child = spawn(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', ...run.args, ...extra], {
    env: { ...process.env, ...run.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => console.log(`[${run.name}] ${line}`));
  }
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ run, code: code ?? 1, seconds: Math.round((performance.now() - t0) / 1000) }));
  });
}

const queue = [...RUNS];
const results: Awaited<ReturnType<typeof play>>[] = [];
const t0 = performance.now();
await Promise.all(
  Array.from({ length: LANES }, async () => {
    for (let run = queue.shift(); run; run = queue.shift()) results.push(await play(run));
  }),
);

console.log(`\nend-to-end runs (${LANES} lanes, ${Math.round((performance.now() - t0) / 1000)} s in all):`);
for (const r of RUNS.map((run) => results.find((x) => x.run === run)!)) {
  console.log(`  ${r.code === 0 ? 'passed' : 'FAILED'}  ${r.run.name.padEnd(12)} ${r.seconds} s`);
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
