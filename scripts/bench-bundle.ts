/**
 * Bundle-size benchmark: gzip sizes of the JavaScript the first page load needs (the entry script
 * of index.html and the chunks it preloads) and of all JavaScript and CSS in the build; and the
 * same first-load figure for the authenticator app (its own build in authenticator/), against its
 * budget: a phone opening it should download React and the app, nothing of the portal.
 * Run `npm run build` first; then `npm run bench:bundle`. Prints a table and a JSON line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error('apps/web/dist/index.html is missing: run "npm run build" first.');
  process.exit(1);
}

const gz = (file: string) => gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\.?\/?(static\/js\/[^"]+\.js)"/g)].map((m) => m[1]!);

function walk(dir: string): string[] {
  return fs
    .readdirSync(path.join(dist, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
const all = walk('static');
const js = all.filter((f) => f.endsWith('.js'));
const css = all.filter((f) => f.endsWith('.css'));
const sum = (files: string[]) => files.reduce((n, f) => n + gz(f), 0);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** The authenticator app's first download may not exceed this (gzip). */
const AUTHENTICATOR_BUDGET_BYTES = 80 * 1024;
const appHtml = path.join(dist, 'authenticator/index.html');
if (!fs.existsSync(appHtml)) {
  console.error('apps/web/dist/authenticator/index.html is missing: run "npm run build" first.');
  process.exit(1);
}
const appInitial = [...fs.readFileSync(appHtml, 'utf8').matchAll(/(?:src|href)="\.?\/?(static\/js\/[^"]+\.js)"/g)].map(
  (m) => `authenticator/${m[1]!}`,
);

const result = {
  initialJsGzipBytes: sum(initial),
  initialJsFiles: initial.length,
  totalJsGzipBytes: sum(js),
  totalJsFiles: js.length,
  totalCssGzipBytes: sum(css),
  authenticatorInitialJsGzipBytes: sum(appInitial),
  authenticatorInitialJsFiles: appInitial.length,
  authenticatorBudgetBytes: AUTHENTICATOR_BUDGET_BYTES,
  authenticatorBudgetRatio: Number((sum(appInitial) / AUTHENTICATOR_BUDGET_BYTES).toFixed(3)),
};
console.log(`initial JavaScript (gzip): ${kb(result.initialJsGzipBytes)} in ${result.initialJsFiles} file(s)`);
for (const f of initial) console.log(`  ${f}  ${kb(gz(f))}`);
console.log(`all JavaScript (gzip):     ${kb(result.totalJsGzipBytes)} in ${result.totalJsFiles} file(s)`);
console.log(`all CSS (gzip):            ${kb(result.totalCssGzipBytes)}`);
console.log(
  `authenticator app, initial JavaScript (gzip): ${kb(result.authenticatorInitialJsGzipBytes)} in ${result.authenticatorInitialJsFiles} file(s), ` +
    `${(result.authenticatorBudgetRatio * 100).toFixed(1)}% of its ${kb(AUTHENTICATOR_BUDGET_BYTES)} budget` +
    (result.authenticatorBudgetRatio > 1 ? ' (OVER BUDGET)' : ''),
);
for (const f of appInitial) console.log(`  ${f}  ${kb(gz(f))}`);
console.log(JSON.stringify(result));
