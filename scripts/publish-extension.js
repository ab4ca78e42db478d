// Puts the built extension's zip where the site serves it: /downloads/aether-extension.zip, linked
// from /extension for loading unpacked (docs/decisions/030). Runs after `npm run build:extension`.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import path from 'node:path'

const output = path.resolve('extension/.output')
const zip = readdirSync(output).find((name) => /^aether-extension-.+-chrome\.zip$/.test(name))
if (!zip) {
  console.error('No extension zip in extension/.output: run `npm run build:extension` first.')
  process.exit(1)
}
const target = path.resolve('build/client/downloads/aether-extension.zip')
mkdirSync(path.dirname(target), { recursive: true })
copyFileSync(path.join(output, zip), target)
console.log(`published ${zip} as ${path.relative(process.cwd(), target)}`)
