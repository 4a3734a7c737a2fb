import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // Tests spawn bin/tablemill, which runs the compiled dist/.
    globalSetup: ['test/build-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: files run in parallel forks; each isolates its own SQLite file / PG schema.
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
