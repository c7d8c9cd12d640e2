import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../src/lib/paths.js';

/** A real `server.ts` process for the operations tests: its output, readiness and exit. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
  output(): { out: string; err: string };
  waitFor(re: RegExp, ms?: number): Promise<void>;
  stop(): Promise<number | null>;
}

export const PROCESS_MFA_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * How long a start may take: tsx compiles the server's sources in the process and in its short-lived
 * PGlite child. Alone that is seconds; beside CI's other lanes on 2 cores it was measured at 40–90 s.
 */
export const SERVER_START_MS = 240_000;

export function startServer(port: number, env: Record<string, string>): ServerProcess {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-ops-'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/server.ts')], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'info', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  void exited.then(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const waitFor = async (re: RegExp, ms = 60_000) => {
    const end = Date.now() + ms;
    while (!re.test(out) && Date.now() < end && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    if (!re.test(out)) throw new Error(`timed out waiting for ${re}; stdout: ${out.slice(-2000)}; stderr: ${err.slice(-2000)}`);
  };
  return {
    child,
    port,
    exited,
    output: () => ({ out, err }),
    waitFor,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
