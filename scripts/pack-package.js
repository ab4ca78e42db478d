import { execFileSync } from 'node:child_process'
import { mkdirSync, renameSync } from 'node:fs'
import path from 'node:path'

/** Packs the npm package in `folder` (npm pack) and moves its tarball to `target/fileName`, where the site serves it. */
export function packPackage(folder, target, fileName) {
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', folder], { cwd: folder, encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)
  mkdirSync(target, { recursive: true })
  renameSync(path.join(folder, packed), path.join(target, fileName))
  return path.join(target, fileName)
}
