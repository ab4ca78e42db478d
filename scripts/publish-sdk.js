// Packs the SDK (sdk/README.md) as an npm package of JavaScript and declarations, and puts its
// tarball where the site serves it: /downloads/aether-sdk.tgz, so `npm i <site>/downloads/aether-sdk.tgz`
// installs the client of that very site's API. Runs after `npm run sdk:generate` (npm run build
// does both). `node scripts/publish-sdk.js [target folder]`.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { packPackage } from './pack-package.js'

const root = path.resolve(import.meta.dirname, '..')
const sdk = path.join(root, 'sdk')
const target = path.resolve(process.argv[2] ?? path.join(root, 'build/client/downloads'))

const work = mkdtempSync(path.join(tmpdir(), 'aether-sdk-package-'))
try {
  execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', sdk, '--outDir', path.join(work, 'dist')], { stdio: 'inherit' })
  for (const file of ['package.json', 'README.md', 'openapi.json']) copyFileSync(path.join(sdk, file), path.join(work, file))
  const tarball = packPackage(work, target, 'aether-sdk.tgz')
  console.log(`published the SDK as ${path.relative(process.cwd(), tarball)}`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
