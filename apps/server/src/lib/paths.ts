import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (apps/server/src/lib → ../../../..). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const localesDir = path.join(repoRoot, 'locales');
export const webDistDir = path.join(repoRoot, 'apps/web/dist');
