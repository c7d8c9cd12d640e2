import { defineConfig } from 'vitest/config';

// One run, several projects. The PostgreSQL server project runs only when TEST_DATABASE_URL is set,
// so the server integration suite runs on PGlite always and on real PostgreSQL in CI.
//
// Workers: Vitest's default is one fewer than the cores, which on a 2-core machine is one worker, and
// most server files spend their time waiting on PostgreSQL, a child process or a socket. Three workers
// keep both cores busy. VITEST_MAX_WORKERS overrides it.
export default defineConfig({
  test: {
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 3,
    projects: [
      'packages/shared/vitest.config.ts',
      'apps/server/vitest.config.ts',
      ...(process.env.TEST_DATABASE_URL ? ['apps/server/vitest.pg.config.ts'] : []),
      'apps/web/vitest.config.ts',
    ],
  },
});
