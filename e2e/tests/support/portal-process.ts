import { spawn } from 'node:child_process';
import https from 'node:https';
import path from 'node:path';

/** The status of a GET, or 0 when nothing answers (the certificate is the portal's self-signed one). */
export function statusOf(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = https.get(url, { rejectUnauthorized: false, timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

export interface PortalProcess {
  /** SIGTERM, and wait until the process has exited (nothing when it already has). */
  stop(): Promise<void>;
}

/**
 * A portal of a journey's own, for journeys that cannot share the run's portal: `node --import tsx
 * <entry>` in the entry's folder, with `env` over this process's. Resolves once `<baseUrl>settings/APIInfo`
 * answers 200; rejects with the portal's output when it exits first or does not answer within
 * `timeoutMs` (and then stops it).
 */
export async function startPortalProcess(opts: {
  entry: string;
  baseUrl: string;
  env: Record<string, string>;
  timeoutMs: number;
}): Promise<PortalProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', opts.entry], {
    cwd: path.dirname(opts.entry),
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const portal: PortalProcess = {
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the portal exited (${child.exitCode}): ${output}`);
    if ((await statusOf(`${opts.baseUrl}settings/APIInfo`)) === 200) return portal;
    if (Date.now() > deadline) {
      await portal.stop();
      throw new Error(`the portal did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
