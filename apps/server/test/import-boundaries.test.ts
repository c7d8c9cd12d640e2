import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/lib/paths.js';

/**
 * The server's import boundaries (eslint.config.js, "Server import boundaries") catch an arrow that
 * runs the wrong way: each snippet is linted as if it were the file named, with the repository's config.
 */

const eslint = new ESLint({ cwd: repoRoot });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, 'apps/server/src', file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('server import boundaries', () => {
  it.each([
    [
      'lib/ imports a module',
      'lib/example.ts',
      "import { contextOf } from '../modules/common/request-context.js';\nexport const x = contextOf;\n",
    ],
    ['lib/ imports mfa/', 'lib/rate-limit/example.ts', "import { MfaError } from '../../mfa/port.js';\nexport const x = MfaError;\n"],
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
  ])('allows: %s', async (_what, file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });
});
