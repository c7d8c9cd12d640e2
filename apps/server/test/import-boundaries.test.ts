import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../src/lib/paths.js';

/**
 * The server's import boundaries (eslint.config.js, "Server import boundaries") catch an arrow that runs
 * the wrong way: each snippet is linted as if it were the file named, with the repository's config.
 * The whole-tree rules (no import cycle, no production file over 300 lines) are proven here too.
 */

const eslint = new ESLint({ cwd: repoRoot });
// The snippets are virtual files, and import/no-cycle cannot place a file that is not on disk in the
// import graph (it throws): off for them. The cycle rule has its own pair of real files below.
const snippetLinter = new ESLint({ cwd: repoRoot, overrideConfig: { rules: { 'import/no-cycle': 'off' } } });
const BOUNDARY_RULES = ['no-restricted-imports', 'import/no-restricted-paths'];

async function ruleErrors(file: string, code: string, rules: string[]): Promise<string[]> {
  const [result] = await snippetLinter.lintText(code, { filePath: path.join(repoRoot, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId !== null && rules.includes(m.ruleId)).map((m) => m.message);
}

const boundaryErrors = (file: string, code: string) => ruleErrors(`apps/server/src/${file}`, code, BOUNDARY_RULES);

// Loading the config, its plugins, the TypeScript parser and the import resolver takes seconds on a busy
// machine: once, here.
beforeAll(() => boundaryErrors('lib/example.ts', "export { buildApp } from '../app.js';\n"), 120_000);

describe('server import boundaries', () => {
  it.each([
    [
      'lib/ imports a module',
      'lib/example.ts',
      "import { contextOf } from '../modules/common/request-context.js';\nexport const x = contextOf;\n",
    ],
    ['lib/ imports mfa/', 'lib/rate-limit/example.ts', "import { MfaError } from '../../mfa/port.js';\nexport const x = MfaError;\n"],
    ['lib/ reads the configuration', 'lib/example.ts', "import type { AppConfig } from '../config.js';\nexport type X = AppConfig;\n"],
    ['db/ reads the environment schema', 'db/example.ts', "import { envSchema } from '../config-env.js';\nexport const x = envSchema;\n"],
    [
      'db/ imports the identity provider',
      'db/example.ts',
      "import { hashPassword } from '../idp/password.js';\nexport const x = hashPassword;\n",
    ],
    ['mfa/ imports a module', 'mfa/example.ts', "import { audited } from '../modules/common/audited.js';\nexport const x = audited;\n"],
    [
      'an adapter imports the other adapter',
      'mfa/duo/example.ts',
      "import { toDevice } from '../builtin/builtin-mapping.js';\nexport const x = toDevice;\n",
    ],
    [
      'mfa/common imports an adapter',
      'mfa/common/example.ts',
      "import { toDevice } from '../builtin/builtin-mapping.js';\nexport const x = toDevice;\n",
    ],
    [
      'a module reaches into an adapter',
      'modules/devices/example.ts',
      "import { toDevice } from '../../mfa/builtin/builtin-mapping.js';\nexport const x = toDevice;\n",
    ],
    [
      'a module registers another module’s routes',
      'modules/devices/example.ts',
      "import { bypassCodeRoutes } from '../bypass-codes/bypass-codes.routes.js';\nexport const x = bypassCodeRoutes;\n",
    ],
    [
      'a module uses another module’s repository',
      'modules/devices/example.ts',
      "import { stepUpRepository } from '../step-up/step-up.repository.js';\nexport const x = stepUpRepository;\n",
    ],
    [
      'production code imports test support',
      'modules/devices/example.ts',
      "import { buildTestApp } from '../../../test/app.js';\nexport const x = buildTestApp;\n",
    ],
    [
      'a module imports the composition root',
      'modules/devices/example.ts',
      "import { buildApp } from '../../app.js';\nexport const x = buildApp;\n",
    ],
    ['lib/ imports app.ts', 'lib/example.ts', "import { buildApp } from '../app.js';\nexport const x = buildApp;\n"],
    ['cli/ imports app.ts', 'cli/example.ts', "import { buildApp } from '../app.js';\nexport const x = buildApp;\n"],
    ['a module imports the entry point', 'modules/devices/example.ts', "import '../../server.js';\n"],
    [
      'a module imports the services (the composition root)',
      'modules/devices/example.ts',
      "import { createServices } from '../../services.js';\nexport const x = createServices;\n",
    ],
    [
      'another root-level file imports the services',
      'config-example.ts',
      "import { createServices } from './services.js';\nexport const x = createServices;\n",
    ],
    [
      'api-routes.ts builds the services itself',
      'api-routes.ts',
      "import { createServices } from './services.js';\nexport const x = createServices;\n",
    ],
    ['services.ts registers the routes', 'services.ts', "import { apiRoutes } from './api-routes.js';\nexport const x = apiRoutes;\n"],
    ['db/ imports lib/', 'db/example.ts', "import { repoRoot } from '../lib/paths.js';\nexport const x = repoRoot;\n"],
    [
      'a module outside modules/admin imports modules/admin/common',
      'modules/devices/example.ts',
      "import { createAdminAuthorization } from '../admin/common/authorization.js';\nexport const x = createAdminAuthorization;\n",
    ],
    [
      'api-routes.ts imports modules/admin/common',
      'api-routes.ts',
      "import { createAdminAuthorization } from './modules/admin/common/authorization.js';\nexport const x = createAdminAuthorization;\n",
    ],
    [
      'a module imports another module’s routes file named x-routes',
      'modules/devices/example.ts',
      "import { sessionRoutes } from '../sessions/session-routes.js';\nexport const x = sessionRoutes;\n",
    ],
    [
      'an admin module imports a sibling admin module’s routes',
      'modules/admin/users/example.ts',
      "import { tokenRoutes } from '../tokens/tokens.routes.js';\nexport const x = tokenRoutes;\n",
    ],
    [
      'modules/common imports a module’s routes',
      'modules/common/example.ts',
      "import { deviceRoutes } from '../devices/devices.routes.js';\nexport const x = deviceRoutes;\n",
    ],
  ])('refuses: %s', async (_what, file, code) => {
    expect(await boundaryErrors(file, code)).toHaveLength(1);
  });

  it.each([
    [
      'a module uses another module’s service',
      'modules/devices/example.ts',
      "import { createStepUpService } from '../step-up/step-up.service.js';\nexport const x = createStepUpService;\n",
    ],
    [
      'a module takes another module’s repository as a type',
      'modules/admin/users/example.ts',
      "import type { DirectoryRepository } from '../../directory/directory.repository.js';\nexport type X = DirectoryRepository;\n",
    ],
    [
      'a module uses the MFA port and lib/',
      'modules/devices/example.ts',
      "import { MfaError } from '../../mfa/port.js';\nimport { AppError } from '../../lib/errors.js';\nexport const x = [MfaError, AppError];\n",
    ],
    [
      'an adapter uses what the adapters share',
      'mfa/duo/example.ts',
      "import { maskPhoneNumber } from '../common/phone.js';\nexport const x = maskPhoneNumber;\n",
    ],
    [
      'a test imports test support',
      'modules/devices/example.test.ts',
      "import { buildTestApp } from '../../../test/app.js';\nexport const x = buildTestApp;\n",
    ],
    ['server.ts imports app.ts', 'server.ts', "import { buildApp } from './app.js';\nexport const x = buildApp;\n"],
    [
      'app.ts imports the services and the routes',
      'app.ts',
      "import { createServices } from './services.js';\nimport { apiRoutes } from './api-routes.js';\nexport const x = [createServices, apiRoutes];\n",
    ],
    ['cli/ imports the services', 'cli/example.ts', "import { createServices } from '../services.js';\nexport const x = createServices;\n"],
    [
      'api-routes.ts takes the services as a type',
      'api-routes.ts',
      "import type { Services } from './services.js';\nexport type X = Services;\n",
    ],
    ['a test imports app.ts', 'lib/example.test.ts', "import { buildApp } from '../app.js';\nexport const x = buildApp;\n"],
    ['lib/ imports db/', 'lib/example.ts', "import type { Database } from '../db/schema.js';\nexport type X = Database;\n"],
    [
      'an admin module uses modules/admin/common',
      'modules/admin/users/example.ts',
      "import { createAdminAuthorization } from '../common/authorization.js';\nexport const x = createAdminAuthorization;\n",
    ],
    [
      'services.ts builds what modules/admin/common offers',
      'services.ts',
      "import { createIdentityVerifications } from './modules/admin/common/identity-verification.js';\nexport const x = createIdentityVerifications;\n",
    ],
    [
      'a module installs the shared self-service route hooks (modules/common)',
      'modules/devices/example.ts',
      "import { installSelfServiceHooks } from '../common/self-routes.js';\nexport const x = installSelfServiceHooks;\n",
    ],
    [
      'an admin module installs the shared admin route hooks (modules/admin/common)',
      'modules/admin/users/example.ts',
      "import { installAdminHooks } from '../common/admin-routes.js';\nexport const x = installAdminHooks;\n",
    ],
    [
      'a module imports its own routes',
      'modules/metrics/example.ts',
      "import { metricsRoutes } from './metrics.routes.js';\nexport const x = metricsRoutes;\n",
    ],
  ])('allows: %s', async (_what, file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });
});

describe('import cycles (import/no-cycle)', () => {
  const fixture = 'apps/server/test/fixtures/lint/cycle-a.ts';

  it('refuses a pair of files that import each other', async () => {
    // The fixture pair is ignored by `eslint .` (it is broken on purpose): lint it explicitly.
    expect(await eslint.isPathIgnored(path.join(repoRoot, fixture))).toBe(true);
    const [result] = await new ESLint({ cwd: repoRoot, ignore: false }).lintFiles([fixture]);
    expect((result?.messages ?? []).map((m) => m.ruleId)).toEqual(['import/no-cycle']);
  });

  it.each(['apps/server/src/lib/example.ts', 'apps/web/src/features/devices/Example.tsx', 'packages/shared/src/example.ts'])(
    'applies to the production file %s, not to tests',
    async (file) => {
      const severity = async (f: string) =>
        ((await eslint.calculateConfigForFile(path.join(repoRoot, f))).rules?.['import/no-cycle'] ?? [0])[0];
      expect(await severity(file)).toBe(2);
      expect(await severity(file.replace(/\.(tsx?)$/, '.test.$1'))).toBe(0);
    },
  );
});

describe('file length (max-lines)', () => {
  const lines = (count: number) => Array.from({ length: count }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n';

  it.each(['apps/server/src/lib/example.ts', 'apps/server/src/modules/devices/example.ts', 'packages/shared/src/example.ts'])(
    'refuses a production file of 301 lines (%s), not one of 300',
    async (file) => {
      expect(await ruleErrors(file, lines(301), ['max-lines'])).toEqual([expect.stringContaining('Maximum allowed is 300')]);
      expect(await ruleErrors(file, lines(300), ['max-lines'])).toEqual([]);
    },
  );

  it('leaves tests alone', async () => {
    expect(await ruleErrors('apps/server/src/lib/example.test.ts', lines(400), ['max-lines'])).toEqual([]);
  });
});
