import { defineConfig } from 'vitest/config';

// One run, several projects. The PostgreSQL server project runs only when TEST_DATABASE_URL is set,
// so the server integration suite runs on PGlite always and on real PostgreSQL in CI.
export default defineConfig({
  test: {
    projects: [
      'packages/shared/vitest.config.ts',
      'apps/server/vitest.config.ts',
      ...(process.env.TEST_DATABASE_URL ? ['apps/server/vitest.pg.config.ts'] : []),
      'apps/web/vitest.config.ts',
    ],
  },
});
