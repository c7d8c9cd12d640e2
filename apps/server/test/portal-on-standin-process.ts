import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../src/lib/paths.js';

/**
 * What the end-to-end launchers of the portal on a stand-in share (duo/portal-on-standin.ts,
 * entra/portal-on-entra.ts), test code only: the stand-in's certificate in a file the server can be
 * told about, the real server (`apps/server/src/server.ts`, as `npm start` does), and one stop for both.
 */

/** Writes the stand-in's certificate to `<tmp>/<prefix>…/ca.pem`; `remove` deletes the folder. */
export function writeCaFile(prefix: string, pem: string): { file: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, 'ca.pem');
  fs.writeFileSync(file, pem);
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts the real server with `env` and ties the two lifetimes together: when the server ends, or on
 * SIGINT/SIGTERM, the server is stopped, `cleanUp` runs (close the stand-in, remove its files) and the
 * process exits with the server's code.
 */
export function runPortalServer(env: NodeJS.ProcessEnv, cleanUp: () => Promise<void>): void {
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/server.ts')], {
    cwd: repoRoot,
    stdio: 'inherit',
    env,
  });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await cleanUp();
    process.exit(code);
  };
  server.on('exit', (code, signal) => void stop(code ?? (signal ? 1 : 0)));
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
}

/** Runs `main` when the module at `moduleUrl` is the entry point (`node --import tsx <file>`). */
export function runIfEntryPoint(moduleUrl: string, main: () => Promise<void>, failure: string): void {
  if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(moduleUrl)) {
    main().catch((err: unknown) => {
      console.error(failure, err);
      process.exit(1);
    });
  }
}
