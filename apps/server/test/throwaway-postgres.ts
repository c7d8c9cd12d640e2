import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL cluster of its own for the operations tests (restart under load, several instances):
 * Debian's binaries, a temporary data directory, loopback only, trust authentication. The machine's
 * shared cluster is never touched. As root, the server runs as the `postgres` user (it refuses root).
 */
export interface ThrowawayPostgres {
  url: string;
  port: number;
  start(): void;
  stop(mode?: 'fast' | 'immediate'): void;
  destroy(): void;
}

function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin/initdb')) && fs.existsSync(path.join(root, v, 'bin/pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Why the cluster cannot be made here, or null when it can. */
export function throwawayPostgresUnavailable(): string | null {
  if (!binDir()) return 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)';
  if (isRoot()) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
      execFileSync('runuser', ['--help'], { stdio: 'ignore' });
    } catch {
      return 'running as root without a postgres user or runuser to start the server as';
    }
  }
  return null;
}

export function createThrowawayPostgres(port: number): ThrowawayPostgres {
  const bin = binDir()!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-pg-'));
  const data = path.join(dir, 'data');
  const run = (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd);
    if (isRoot()) execFileSync('runuser', ['-u', 'postgres', '--', full, ...args], { stdio: 'pipe', timeout: 60_000 });
    else execFileSync(full, args, { stdio: 'pipe', timeout: 60_000 });
  };
  if (isRoot()) execFileSync('chown', ['postgres', dir]);
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']),
    stop: (mode = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']),
    destroy() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already stopped.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
