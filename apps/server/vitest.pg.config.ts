import { defineProject } from 'vitest/config';
import { serverTestOptions } from './vitest.config';

/**
 * The same database-backed suites on real PostgreSQL (TEST_DATABASE_URL), where races that PGlite
 * hides (it serialises every query) show up. Each test file gets a database cloned from a migrated template.
 */
export default defineProject({
  test: {
    ...serverTestOptions,
    name: 'server-pg',
    include: ['src/**/*.int.test.ts', 'test/**/*.int.test.ts', 'src/**/*.pg.test.ts'],
    env: { TEST_DB: 'postgres' },
  },
});
