// The benchmarks' command lines: Node's parseArgs with --help, and refusals that print the usage.
import { parseArgs } from 'node:util'

/**
 * Parses `options` (and --help, which prints `usage` and exits). `fail` prints a message and the
 * usage and exits 2; `integer` reads a whole-number option within bounds, or fails.
 */
export function benchArgs(usage, options) {
  const { values } = parseArgs({ options: { ...options, help: { type: 'boolean', default: false } } })
  if (values.help) {
    console.log(usage)
    process.exit(0)
  }
  const fail = (message) => {
    console.error(`${message}\n\n${usage}`)
    process.exit(2)
  }
  const integer = (name, min, max) => {
    const value = Number(values[name])
    if (!Number.isInteger(value) || value < min || value > max) fail(`--${name} must be a whole number from ${min} to ${max}`)
    return value
  }
  return { values, fail, integer }
}

/** --db, --postgres and --build / --skip-build, as the benchmarks that start servers per database take them. */
export function databaseArgs(values, fail) {
  if (!['pglite', 'postgres', 'both'].includes(values.db)) fail('--db must be pglite, postgres or both')
  if (!/^postgres(ql)?:\/\//.test(values.postgres)) fail('--postgres must be a postgres:// URL')
  if (values.build && values['skip-build']) fail('--build and --skip-build exclude each other')
  return {
    databases: values.db === 'both' ? ['pglite', 'postgres'] : [values.db],
    postgres: values.postgres,
    build: values.build,
    skipBuild: values['skip-build'],
  }
}
