// Clean-up for the benchmarks: whatever happens (an error, Ctrl-C), stop what was started (by PID)
// and remove the temporary folders, in the reverse order of their creation.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export const cleanups = []
let cleaning

/** Runs every registered clean-up step once; later calls wait for the same run. */
function cleanup() {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step()
      } catch (error) {
        console.error(`clean-up: ${error.message}`)
      }
    }
  })()
  return cleaning
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping what the benchmark started, removing temporary files`)
    cleanup().finally(() => process.exit(130))
  })
}

/** A temporary folder removed at clean-up. */
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Runs a benchmark's main (which returns its exit code), cleans up whatever happens, and exits. */
export async function runBenchmark(name, main) {
  let code = 1
  try {
    code = await main()
  } catch (error) {
    console.error(`\n${name} failed: ${error.message}`)
  } finally {
    await cleanup()
  }
  process.exit(code)
}
