import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, it } from 'vitest'
import { watchFolder } from './watch-folder.ts'

it('calls back once for each file that appears in the folder, once it is written, and not for those there before', async () => {
  const folder = await mkdtemp(path.join(tmpdir(), 'aether-watch-'))
  await writeFile(path.join(folder, 'old.csv'), 'a\n1\n')
  const stop = new AbortController()
  const seen: string[] = []
  const arrived = new Promise<void>((resolve) => {
    void watchFolder({
      folder,
      signal: stop.signal,
      onFile: (file) => {
        seen.push(file)
        if (seen.length === 2) resolve()
        return Promise.resolve()
      },
    })
  })
  await new Promise((resolve) => setTimeout(resolve, 100))
  await writeFile(path.join(folder, 'new.csv'), 'a\n2\n')
  await writeFile(path.join(folder, '.hidden'), 'x')
  await writeFile(path.join(folder, 'second.csv'), 'a\n3\n')
  await arrived
  stop.abort()
  expect(seen).toEqual([path.join(folder, 'new.csv'), path.join(folder, 'second.csv')])
  await rm(folder, { recursive: true, force: true })
})
