import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'server/**/*.test.ts',
      'common/**/*.test.ts',
      'runner/**/*.test.ts',
      'app/**/*.test.{ts,tsx}',
      'extension/src/**/*.test.ts',
      'sdk/**/*.test.ts',
    ],
    environment: 'node',
    setupFiles: ['./tests/setup/fail-on-console-error.ts'],
    globalSetup: ['./tests/setup/pglite-template.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each test file opens its own database; two at a time fits a 2-core machine.
    maxWorkers: 2,
  },
})
