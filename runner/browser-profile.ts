import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * The runner's browser profile (`--profile <folder>`): the cookies and storage of the member's own
 * sign-ins, kept on their machine in <folder>/storage-state.json (readable by them only). Runs with
 * it start signed in where the member signed in (`sign-in`, or an earlier run), so recorded
 * sign-ins need no vault value on this machine.
 */
export function createBrowserProfile(folder: string) {
  const file = path.join(path.resolve(folder), 'storage-state.json')
  return {
    file,
    async load(): Promise<string | null> {
      try {
        return await readFile(file, 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async save(state: string): Promise<void> {
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
      await writeFile(file, state, { mode: 0o600 })
      await chmod(file, 0o600)
    },
  }
}

export type BrowserProfile = ReturnType<typeof createBrowserProfile>
