/**
 * `npm run build:server` (part of `npm run build`): the server compiled once, ahead of time, into
 * `apps/server/dist` with esbuild, so `npm start` and the container run plain JavaScript instead of
 * compiling TypeScript at every start (a faster warm start and less resident memory).
 *
 * - `server.js`: `apps/server/src/server.ts` and everything of the repository it imports, the shared
 *   package included; the npm packages stay external and load from node_modules as before.
 * - `audit-chain.worker.js`: the hash-chain worker thread, beside it (the client loads `./audit-chain.worker.js`
 *   next to itself when it runs compiled).
 * - `assets/`: the identity provider's stylesheet and passkey script, read next to the module.
 * - Source maps: `--enable-source-maps` (as `npm run serve` and the container pass it) gives stack
 *   traces in the TypeScript sources.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'apps/server/src');
const OUT = path.join(ROOT, 'apps/server/dist');

const t0 = performance.now();
fs.rmSync(OUT, { recursive: true, force: true });
const result = await build({
  entryPoints: {
    server: path.join(SRC, 'server.ts'),
    'audit-chain.worker': path.join(SRC, 'modules/audit/audit-chain.worker.ts'),
  },
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // npm packages load from node_modules at run time; the workspace package is source, so it is bundled.
  packages: 'external',
  alias: { '@mfa-portal/shared': path.join(ROOT, 'packages/shared/src/index.ts') },
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
fs.cpSync(path.join(SRC, 'idp/assets'), path.join(OUT, 'assets'), { recursive: true });

// Nothing of the repository may stay external: it would be TypeScript that plain Node cannot load.
const stray = Object.values(result.metafile.outputs)
  .flatMap((o) => o.imports)
  .filter((i) => i.external && (i.path.startsWith('.') || i.path.startsWith('/') || i.path.startsWith('@mfa-portal/')));
if (stray.length) throw new Error(`left outside the server build: ${[...new Set(stray.map((i) => i.path))].join(', ')}`);

const sizes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.js'))
  .map(([file, o]) => `${path.relative(ROOT, file)} ${(o.bytes / 1024).toFixed(0)} KiB`);
console.log(`server built in ${(performance.now() - t0).toFixed(0)} ms: ${sizes.join(', ')}`);
