import os from 'node:os';
import path from 'node:path';
import type { PlaywrightTestConfig } from '@playwright/test';
import builtin, { E2E_SERVER_ENV } from './playwright.config';

/**
 * What the configurations that run the portal on a stand-in share (playwright.duo.config.ts,
 * playwright.entra.config.ts): the builtin configuration's `use` on their own base URL, their own
 * results folder, and the launch of `apps/server/test/<launcher>` (the stand-in, then the real server)
 * with fresh data and control files each run. Not a configuration itself.
 */
export function onStandin(opts: {
  /** `duo`, `entra`: names the temporary folders. */
  name: string;
  port: number;
  /** The launcher under apps/server/test/, e.g. `duo/portal-on-standin.ts`. */
  launcher: string;
  /** The file the launcher writes the stand-in's control address and token to (removed before each run). */
  controlFile: string;
  /** Environment of the launcher beyond the server's usual one. */
  env: Record<string, string>;
}): Pick<PlaywrightTestConfig, 'outputDir' | 'use' | 'webServer'> {
  const baseURL = `https://localhost:${opts.port}/`;
  const dataDir = path.join(os.tmpdir(), `mfa-portal-e2e-${opts.name}-${opts.port}`);
  return {
    outputDir: path.join(os.tmpdir(), `mfa-portal-e2e-${opts.name}-results-${opts.port}`),
    use: { ...builtin.use, baseURL },
    webServer: {
      command: `rm -rf "${dataDir}" "${opts.controlFile}" && node --import tsx ../apps/server/test/${opts.launcher}`,
      cwd: import.meta.dirname,
      url: `${baseURL}settings/APIInfo`,
      ignoreHTTPSErrors: true,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(opts.port),
        DATA_DIR: dataDir,
        ...E2E_SERVER_ENV,
        ...opts.env,
      },
    },
  };
}
