import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root: apps/server/src/lib → ../../../.. when the server runs from source (tsx,
 * vitest), apps/server/dist → ../../.. when it runs compiled (`npm start`, the container: see
 * scripts/build-server.ts, which bundles this module into dist/server.js).
 */
export const repoRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  import.meta.url.endsWith('.ts') ? '../../../..' : '../../..',
);
export const localesDir = path.join(repoRoot, 'locales');
export const webDistDir = path.join(repoRoot, 'apps/web/dist');
