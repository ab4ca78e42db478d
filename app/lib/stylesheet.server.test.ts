import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { builtStylesheet } from './stylesheet.server.ts'

const clientDir = mkdtempSync(path.join(tmpdir(), 'aether-stylesheet-'))
mkdirSync(path.join(clientDir, 'assets'))
writeFileSync(path.join(clientDir, 'assets/app-abc.css'), 'body{color:red}')
writeFileSync(path.join(clientDir, 'assets/closing-abc.css'), 'a{content:"</style><script>alert(1)</script>"}')
writeFileSync(path.join(clientDir, 'secret.css'), 'not an asset')
afterAll(() => rmSync(clientDir, { recursive: true, force: true }))

describe('builtStylesheet', () => {
  it('reads a built stylesheet of /assets/', () => {
    expect(builtStylesheet('/assets/app-abc.css', clientDir)).toBe('body{color:red}')
  })

  it('answers null for a missing file, so the page links to it instead', () => {
    expect(builtStylesheet('/assets/app-missing.css', clientDir)).toBeNull()
  })

  it('reads nothing outside /assets/ and nothing but stylesheets', () => {
    expect(builtStylesheet('/secret.css', clientDir)).toBeNull()
    expect(builtStylesheet('/assets/../secret.css', clientDir)).toBeNull()
    expect(builtStylesheet('/assets/app-abc.js', clientDir)).toBeNull()
  })

  it('refuses a text that would close the <style> element', () => {
    expect(builtStylesheet('/assets/closing-abc.css', clientDir)).toBeNull()
  })
})
