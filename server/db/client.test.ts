import { describe, expect, it } from 'vitest'
import { redactUrl } from './client.ts'

describe('redactUrl (what diagnostics and logs show of DATABASE_URL)', () => {
  it('hides the password and the value of every parameter', () => {
    expect(redactUrl('postgres://aether:s3cret@db.example:5432/aether')).toBe('postgres://aether:***@db.example:5432/aether')
    const shown = redactUrl('postgres://aether@db.example/aether?password=s3cret&sslpassword=k3y&sslmode=require')
    expect(shown).not.toMatch(/s3cret|k3y/)
    expect(shown).toContain('password=***')
  })

  it('never echoes an unparseable URL', () => {
    expect(redactUrl('postgres://user:pa ss@[bad')).toBe('postgres (unparseable URL)')
  })
})
