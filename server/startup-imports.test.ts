import { readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// What a start loads is what server/main.ts imports statically, transitively. These packages take
// from tens of milliseconds to half a second of CPU to load and a start does not need them: they are imported
// where they are first used (issue 18, cold start). A static import of one of them from anything
// the boot imports would slow every start again.
const LOADED_ON_DEMAND = [
  'better-auth',
  '@better-auth/passkey',
  '@simplewebauthn/server',
  'playwright-core',
  'ai',
  '@ai-sdk/openai-compatible',
  'nodemailer',
  'satori',
  '@resvg/resvg-js',
  // With the pages' build (first page, or the warm-up a second after start).
  'react-router',
  'react',
  'react-dom',
]

const ROOT = process.cwd()
const ALIASES: Record<string, string> = { '#server/': 'server/', '#common/': 'common/', '#app/': 'app/' }

/** The modules a file imports for their values (not `import type`, not only type names), static imports only. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)
  const specifiers: string[] = []
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause
      if (clause?.isTypeOnly) continue
      const bindings = clause?.namedBindings
      const onlyTypes =
        clause &&
        !clause.name &&
        bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((e) => e.isTypeOnly)
      if (!onlyTypes) specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text)
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text)
    }
  }
  return specifiers
}

function resolveLocal(from: string, specifier: string): string | null {
  for (const [alias, folder] of Object.entries(ALIASES)) {
    if (specifier.startsWith(alias)) return path.join(ROOT, folder, specifier.slice(alias.length))
  }
  return specifier.startsWith('.') ? path.resolve(path.dirname(from), specifier) : null
}

const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')

/** Every package the boot loads, with the first file that imports it. */
function packagesLoadedAtStart(entry: string): Map<string, string> {
  const packages = new Map<string, string>()
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const specifier of valueImports(file)) {
      const local = resolveLocal(file, specifier)
      if (local) visit(local)
      else if (!specifier.startsWith('node:') && !packages.has(packageOf(specifier)))
        packages.set(packageOf(specifier), path.relative(ROOT, file))
    }
  }
  visit(entry)
  return packages
}

describe('what a start loads', () => {
  const packages = packagesLoadedAtStart(path.join(ROOT, 'server/main.ts'))

  it('follows the boot through the server (it sees the packages every start needs)', () => {
    for (const needed of ['hono', 'drizzle-orm', 'pino', 'zod']) expect(packages.has(needed), needed).toBe(true)
  })

  it('leaves out the packages loaded on first use', () => {
    const loaded = LOADED_ON_DEMAND.filter((name) => packages.has(name)).map((name) => `${name} (imported by ${packages.get(name)})`)
    expect(loaded).toEqual([])
  })
})
