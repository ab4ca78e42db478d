import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// docs/architecture.md describes the tree as it is (issue 13): every folder and file its tree
// names, and every path it quotes, must exist, so a move or a rename that forgets the page fails here.
const root = process.cwd()
const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8')
const tree = /## Tree\n\n```\n([\s\S]*?)\n```/.exec(doc)?.[1] ?? ''

/** The tree's first column: top-level names, and names indented two spaces under the last of them. */
function treeEntries(): string[] {
  const entries: string[] = []
  let parent = ''
  for (const line of tree.split('\n')) {
    const match = /^( {0,2})(\S+)/.exec(line)
    if (!match) continue
    const [, indent, name] = match as unknown as [string, string, string]
    if (indent === '') {
      parent = name.endsWith('/') ? name : ''
      entries.push(name)
    } else if (parent) {
      entries.push(parent + name)
    }
  }
  return entries
}

/** A quoted path, as the text around it places it: from the repository root, or under server/ or server/features/. */
function exists(quoted: string): boolean {
  const clean = quoted.replace(/^\.?\//, '')
  return ['', 'server/', 'server/features/', 'app/'].some((base) => existsSync(path.join(root, base, clean)))
}

describe('docs/architecture.md', () => {
  it('names in its tree only folders and files that exist', () => {
    const entries = treeEntries()
    expect(entries.length).toBeGreaterThan(25)
    const missing = entries.filter((entry) => !entry.includes('<') && !entry.includes('*') && !existsSync(path.join(root, entry)))
    expect(missing).toEqual([])
  })

  it('describes every top-level folder, every feature of the server and every area of the app', () => {
    const entries = new Set(treeEntries())
    const tracked = ['app/', 'server/', 'common/', 'extension/', 'runner/', 'eslint/', 'scripts/', 'docs/']
    expect(tracked.filter((folder) => !entries.has(folder))).toEqual([])
    const features = readdirNames('server/features')
    const described = tree.slice(tree.indexOf('features/<area>/     <area>.service.ts'))
    expect(features.filter((feature) => !new RegExp(`\\b${feature}\\b`).test(described))).toEqual([])
    const areas = tree.slice(tree.indexOf('page parts per area'), tree.indexOf('components/'))
    expect(readdirNames('app/features').filter((area) => !new RegExp(`\\b${area}\\b`).test(areas))).toEqual([])
  })

  it('quotes only paths that exist (build output aside)', () => {
    const quoted = [...doc.matchAll(/`([\w./-]+\/[\w.-]+\.(?:ts|tsx|js|mjs|md))`/g)]
      .map((match) => match[1] as string)
      .filter((file) => !file.startsWith('build/'))
    expect(quoted.length).toBeGreaterThan(20)
    expect(quoted.filter((file) => !exists(file))).toEqual([])
  })
})

function readdirNames(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
}
