import { watch } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/** How long a new file's size must stay the same before it counts as written. */
const STEADY_MS = 500

/**
 * Calls `onFile` once for each file that appears in the folder from now on (docs/decisions/046:
 * "start a run when a file appears"), once it has stopped growing; files there already, folders
 * and hidden files are left alone. One file at a time, in the order they appeared. Ends when the
 * signal aborts.
 */
export async function watchFolder(options: {
  folder: string
  onFile: (file: string) => Promise<void>
  signal: AbortSignal
}): Promise<void> {
  const seen = new Set(await readdir(options.folder))
  const waiting: string[] = []
  let wake: (() => void) | null = null
  const watcher = watch(options.folder, (_event, name) => {
    if (!name || seen.has(name) || name.startsWith('.')) return
    seen.add(name)
    waiting.push(name)
    wake?.()
  })
  options.signal.addEventListener('abort', () => {
    watcher.close()
    wake?.()
  })
  try {
    while (!options.signal.aborted) {
      const name = waiting.shift()
      if (!name) {
        await new Promise<void>((resolve) => (wake = resolve))
        wake = null
        continue
      }
      const file = path.join(options.folder, name)
      if (await steadyFile(file, options.signal)) await options.onFile(file)
    }
  } finally {
    watcher.close()
  }
}

/** True once the path is a file whose size stayed the same for STEADY_MS; false when it went or is no file. */
async function steadyFile(file: string, signal: AbortSignal): Promise<boolean> {
  let size = -1
  for (;;) {
    const facts = await stat(file).catch(() => null)
    if (!facts?.isFile()) return false
    if (facts.size === size) return true
    size = facts.size
    await sleep(STEADY_MS, undefined, { signal }).catch(() => {})
    if (signal.aborted) return false
  }
}
