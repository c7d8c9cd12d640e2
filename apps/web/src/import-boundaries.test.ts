import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The web's import boundaries (eslint.config.js, "Web import boundaries") catch an arrow that runs the
 * wrong way: each snippet is linted as if it were a file at that place in apps/web/src.
 */
const root = path.resolve(import.meta.dirname, '../../..');
// The snippets are virtual files, and import/no-cycle cannot place a file that is not on disk in the
// import graph (it throws): off for them. The cycle rule is proven on real files in
// apps/server/test/import-boundaries.test.ts.
const eslint = new ESLint({ cwd: root, overrideConfig: { rules: { 'import/no-cycle': 'off' } } });

async function ruleErrors(file: string, code: string, ruleId: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, 'apps/web/src', file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

const boundaryErrors = (file: string, code: string) => ruleErrors(file, code, 'import/no-restricted-paths');

describe('web import boundaries', () => {
  // Loading the config, its plugins and the TypeScript parser takes seconds on a busy machine: once, here.
  beforeAll(() => eslint.lintText('export {};\n', { filePath: path.join(root, 'apps/web/src/main.tsx') }), 60_000);

  it('refuses a feature that imports another feature', async () => {
    const errors = await boundaryErrors(
      'features/devices/components/WrongWay.tsx',
      "import { LostDevicePage } from '../../admin/routes/LostDevicePage';\nexport const page = LostDevicePage;\n",
    );
    expect(errors).toEqual([expect.stringContaining('A feature does not import another feature')]);
  });

  it('refuses lib/ importing a feature or app/', async () => {
    const errors = await boundaryErrors(
      'lib/ui/WrongWay.tsx',
      "import { OverviewPage } from '../../features/overview';\nimport { AppRouter } from '../../app/router';\nexport const both = [OverviewPage, AppRouter];\n",
    );
    expect(errors).toEqual([
      expect.stringContaining('lib/ does not import features/ or app/'),
      expect.stringContaining('lib/ does not import features/ or app/'),
    ]);
  });

  it('refuses the sign-in shell importing lib/ or app/', async () => {
    const errors = await boundaryErrors(
      'shell/WrongWay.tsx',
      "import { MAIN_ROUTES } from '../lib/main-routes';\nimport MainApp from '../app';\nexport const both = [MAIN_ROUTES, MainApp];\n",
    );
    expect(errors).toEqual([
      expect.stringContaining('The sign-in shell does not import lib/'),
      expect.stringContaining('The sign-in shell does not import features/ or app/'),
    ]);
  });

  it('lets a feature import lib/, the shell and its own files', async () => {
    const errors = await boundaryErrors(
      'features/devices/components/RightWay.tsx',
      [
        "import { useDevices } from '../../../lib/devices/api/get-devices';",
        "import { useUser } from '../../../shell/contexts';",
        "import { DeviceActions } from './DeviceActions';",
        'export const all = [useDevices, useUser, DeviceActions];',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  describe('file length (max-lines)', () => {
    const lines = (count: number) => Array.from({ length: count }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n';

    it('refuses a production file over 300 lines', async () => {
      expect(await ruleErrors('features/devices/components/Long.tsx', lines(301), 'max-lines')).toEqual([
        expect.stringContaining('Maximum allowed is 300'),
      ]);
      expect(await ruleErrors('features/devices/components/Long.tsx', lines(300), 'max-lines')).toEqual([]);
    });

    it.each(['features/devices/components/Long.test.tsx', 'test/long-fixtures.ts', 'lib/test/long-fake.ts'])(
      'leaves tests and test support alone: %s',
      async (file) => {
        expect(await ruleErrors(file, lines(400), 'max-lines')).toEqual([]);
      },
    );
  });

  it("refuses React's own lazy outside the time-out wrapper (every chunk gets the 120-second time-out)", async () => {
    const code = "import { lazy } from 'react';\nexport const Page = lazy(() => import('./Page'));\n";
    expect(await ruleErrors('features/admin/Lazy.tsx', code, 'no-restricted-syntax')).toEqual([expect.stringContaining('lazyWithTimeout')]);
    expect(await ruleErrors('shell/lazy-with-timeout.ts', code, 'no-restricted-syntax')).toEqual([]);
  });
});
