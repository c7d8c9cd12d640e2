import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** Web unit and route-level tests (Testing Library on jsdom). */
export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
