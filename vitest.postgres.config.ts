import { configDefaults, defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.ts'

/**
 * The second pass of CI, on a real PostgreSQL server (docs/decisions/047): the suites whose subject
 * is the database's work — the API, the services, the migrations, the queue, the security
 * properties — run again there. Suites about what a browser does on a page (planning, running
 * steps, the runner, the extension) and about pure logic keep their results in the same services
 * as the rest, so they run once, on PGlite, in `npm test`.
 */
export const ONCE_ON_PGLITE = [
  'common/**',
  'app/**/*.test.tsx',
  'extension/**',
  'runner/**',
  'sdk/**',
  'server/browser/**',
  'server/features/planning/**',
  'server/features/runs/{workflow-runs,step-executor,step-executor-late-site,step-failures,step-on-error,self-repair,run-trace}.test.ts',
  'server/tables/{table-files,extracted-csv}.test.ts',
  'server/features/vault/{vault-in-runs,secret-typing}.test.ts',
]

export default mergeConfig(
  { ...base, test: { ...base.test, globalSetup: ['./tests/setup/postgres-template.ts'] } },
  defineConfig({ test: { exclude: [...configDefaults.exclude, ...ONCE_ON_PGLITE] } }),
)
