import { defineProject } from 'vitest/config';
export default defineProject({ test: { name: 'shared', root: import.meta.dirname, include: ['src/**/*.test.ts'], environment: 'node' } });
