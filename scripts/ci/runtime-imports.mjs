// Checks that the production server can load every package it may import, from the folder it runs
// in: each bare specifier of build/server (static imports, and the dynamic ones loaded on first
// use: Better Auth, Playwright, the AI SDK, nodemailer, satori…) must belong to a package of
// package.json's `dependencies` (a runtime-only install, `npm ci --omit=dev`, has nothing else) and
// must import. Run it in that folder: `node runtime-imports.mjs` (exit 1 on a problem).
import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'

const root = process.cwd()
const dependencies = new Set(Object.keys(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies ?? {}))
const builtins = new Set(builtinModules)

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    return entry.isDirectory() ? files(file) : entry.name.endsWith('.js') ? [file] : []
  })
}

// `import … from "x"`, `import "x"`, `export … from "x"` at the start of a line (Rollup's output),
// and `import("x")` anywhere.
const PATTERNS = [/^(?:import|export)\s[^;]*?from\s*"([^"]+)"/gm, /^import\s*"([^"]+)"/gm, /\bimport\(\s*"([^"]+)"\s*\)/g]
const specifiers = new Set()
for (const file of files(path.join(root, 'build/server'))) {
  const source = readFileSync(file, 'utf8')
  for (const pattern of PATTERNS) for (const match of source.matchAll(pattern)) specifiers.add(match[1])
}

const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')
const problems = []
const checked = []
for (const specifier of [...specifiers].sort()) {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || builtins.has(specifier)) continue
  const name = packageOf(specifier)
  if (!dependencies.has(name)) {
    problems.push(`${specifier}: ${name} is not in package.json's dependencies (a runtime-only install lacks it)`)
    continue
  }
  try {
    await import(specifier)
    checked.push(specifier)
  } catch (error) {
    problems.push(`${specifier}: does not import (${error.message.split('\n')[0]})`)
  }
}
if (problems.length) {
  console.error(`runtime imports: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`)
  process.exit(1)
}
console.log(`runtime imports: the ${checked.length} package entry points build/server imports are dependencies and load`)
process.exit(0)
