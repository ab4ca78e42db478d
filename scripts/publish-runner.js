// Builds the local runner as an npm package of plain JavaScript and puts its tarball where the site
// serves it: /downloads/aether-runner.tgz, so `npx <site>/downloads/aether-runner.tgz pair …` and
// `npm i -g <site>/downloads/aether-runner.tgz` work without a clone or a registry of ours
// (README "Local runner"). Playwright stays a dependency (it drives the member's own Chromium);
// the rest of what the runner uses is bundled. `node scripts/publish-runner.js [target folder]`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { packPackage } from './pack-package.js'
import { build } from 'esbuild'

const root = path.resolve(import.meta.dirname, '..')
const target = path.resolve(process.argv[2] ?? path.join(root, 'build/client/downloads'))
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version
const playwright = JSON.parse(readFileSync(path.join(root, 'node_modules/playwright-core/package.json'), 'utf8')).version

const work = mkdtempSync(path.join(tmpdir(), 'aether-runner-package-'))
try {
  await build({
    entryPoints: [path.join(root, 'runner/bin.ts')],
    outfile: path.join(work, 'dist/aether-runner.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['playwright-core'],
    // Bundled CommonJS modules still call require: give them one.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module'\nconst require = __createRequire(import.meta.url)",
    },
    logLevel: 'warning',
  })
  writeFileSync(
    path.join(work, 'package.json'),
    `${JSON.stringify(
      {
        name: 'aether-runner',
        version,
        description: 'Runs Aether automations on your own machine, in your installed Chromium or Chrome.',
        type: 'module',
        bin: { 'aether-runner': 'dist/aether-runner.mjs' },
        files: ['dist'],
        engines: { node: '>=20.19' },
        dependencies: { 'playwright-core': playwright },
        license: 'UNLICENSED',
      },
      null,
      2,
    )}\n`,
  )
  writeFileSync(
    path.join(work, 'README.md'),
    '# aether-runner\n\nRuns Aether automations on this machine. `aether-runner pair --server <your Aether site>`, then `aether-runner --help`.\n',
  )
  const tarball = packPackage(work, target, 'aether-runner.tgz')
  console.log(`published the local runner ${version} as ${path.relative(process.cwd(), tarball)}`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
