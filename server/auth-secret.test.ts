import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveAuthSecret } from './auth-secret.ts'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'aether-secret-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('resolveAuthSecret', () => {
  it('uses AUTH_SECRET when it is configured and writes nothing', () => {
    const dir = tempDir()
    expect(resolveAuthSecret('configured-secret-configured-secret', dir)).toBe('configured-secret-configured-secret')
    expect(() => statSync(path.join(dir, 'auth-secret'))).toThrow()
  })

  it('otherwise generates a strong random secret, keeps it private in the data folder and reuses it', () => {
    const dir = path.join(tempDir(), 'nested', 'data')
    const first = resolveAuthSecret(undefined, dir)
    expect(first.length).toBeGreaterThanOrEqual(32)
    const file = path.join(dir, 'auth-secret')
    expect(readFileSync(file, 'utf8')).toBe(first)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(resolveAuthSecret(undefined, dir)).toBe(first)
  })

  it('differs between data folders (no fixed default)', () => {
    expect(resolveAuthSecret(undefined, tempDir())).not.toBe(resolveAuthSecret(undefined, tempDir()))
  })

  it('replaces a stored secret that is too short', () => {
    const dir = tempDir()
    writeFileSync(path.join(dir, 'auth-secret'), 'short')
    const secret = resolveAuthSecret(undefined, dir)
    expect(secret).not.toBe('short')
    expect(secret.length).toBeGreaterThanOrEqual(32)
  })
})
