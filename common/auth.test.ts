import { describe, expect, it } from 'vitest'
import {
  changePasswordSchema,
  emailSchema,
  fullNameSchema,
  loginSchema,
  newPasswordSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  profileUpdateSchema,
  registerSchema,
} from './auth.ts'

function firstIssue(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const issue = result.error?.issues[0]
  return { path: issue?.path.join('.'), message: issue?.message }
}

describe('password rules (shared by forms and API)', () => {
  it('are 8 to 128 characters', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8)
    expect(PASSWORD_MAX_LENGTH).toBe(128)
  })

  it('refuse 7 and 129 characters, accept 8 and 128', () => {
    expect(newPasswordSchema.safeParse('a'.repeat(7)).success).toBe(false)
    expect(newPasswordSchema.safeParse('a'.repeat(8)).success).toBe(true)
    expect(newPasswordSchema.safeParse('a'.repeat(128)).success).toBe(true)
    expect(newPasswordSchema.safeParse('a'.repeat(129)).success).toBe(false)
  })

  it('give readable messages', () => {
    expect(firstIssue(newPasswordSchema.safeParse('short')).message).toBe('Password must be at least 8 characters.')
    expect(firstIssue(newPasswordSchema.safeParse('a'.repeat(129))).message).toBe('Password must be at most 128 characters.')
    expect(firstIssue(newPasswordSchema.safeParse(undefined)).message).toBe('Password is required')
  })

  it('sign-in accepts any non-empty password up to 128 characters (old passwords keep working)', () => {
    expect(loginSchema.safeParse({ email: 'a@example.com', password: 'x' }).success).toBe(true)
    expect(loginSchema.safeParse({ email: 'a@example.com', password: '' }).success).toBe(false)
    expect(loginSchema.safeParse({ email: 'a@example.com', password: 'a'.repeat(129) }).success).toBe(false)
  })

  it('change-password applies the new-password rule to newPassword only', () => {
    expect(changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: 'long-enough' }).success).toBe(true)
    const short = changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: 'short' })
    expect(firstIssue(short).path).toBe('newPassword')
    const missing = changePasswordSchema.safeParse({ newPassword: 'long-enough' })
    expect(firstIssue(missing).path).toBe('currentPassword')
  })
})

describe('emailSchema', () => {
  it('trims and lower-cases', () => {
    expect(emailSchema.parse('  Ada@Example.COM ')).toBe('ada@example.com')
  })

  it('refuses empty, invalid and over-long addresses', () => {
    expect(firstIssue(emailSchema.safeParse('')).message).toBe('Email is required')
    expect(firstIssue(emailSchema.safeParse('not-an-email')).message).toBe('Please enter a valid email address.')
    expect(emailSchema.safeParse(`${'a'.repeat(250)}@example.com`).success).toBe(false)
    expect(emailSchema.safeParse(undefined).success).toBe(false)
  })
})

describe('fullNameSchema', () => {
  it("refuses names under 2 characters with the spec's message", () => {
    expect(firstIssue(fullNameSchema.safeParse('A')).message).toBe('Name must be at least 2 characters.')
    // Whitespace does not count.
    expect(firstIssue(fullNameSchema.safeParse('  A  ')).message).toBe('Name must be at least 2 characters.')
    expect(fullNameSchema.parse('  Al ')).toBe('Al')
  })

  it('refuses names over 100 characters', () => {
    expect(fullNameSchema.safeParse('a'.repeat(100)).success).toBe(true)
    expect(fullNameSchema.safeParse('a'.repeat(101)).success).toBe(false)
  })
})

describe('registerSchema', () => {
  it('makes fullName optional and names the failing field', () => {
    expect(registerSchema.safeParse({ email: 'a@example.com', password: 'long-enough' }).success).toBe(true)
    expect(firstIssue(registerSchema.safeParse({ email: 'bad', password: 'long-enough' })).path).toBe('email')
    expect(firstIssue(registerSchema.safeParse({ email: 'a@example.com', password: 'short' })).path).toBe('password')
    expect(firstIssue(registerSchema.safeParse({ email: 'a@example.com', password: 'long-enough', fullName: 'A' })).path).toBe('fullName')
  })
})

describe('profileUpdateSchema', () => {
  it('accepts http and https avatar URLs and null (remove the avatar)', () => {
    expect(profileUpdateSchema.safeParse({ avatarUrl: 'https://example.com/a.png' }).success).toBe(true)
    expect(profileUpdateSchema.safeParse({ avatarUrl: 'http://example.com/a.png' }).success).toBe(true)
    expect(profileUpdateSchema.safeParse({ avatarUrl: null }).success).toBe(true)
  })

  it('refuses other URL schemes', () => {
    for (const avatarUrl of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'ftp://example.com/a.png',
      'file:///etc/passwd',
      'not a url',
    ]) {
      const result = profileUpdateSchema.safeParse({ avatarUrl })
      expect(result.success, avatarUrl).toBe(false)
      expect(firstIssue(result).path).toBe('avatarUrl')
    }
  })

  it('refuses an avatar URL over 2048 characters', () => {
    expect(profileUpdateSchema.safeParse({ avatarUrl: `https://example.com/${'a'.repeat(2048)}` }).success).toBe(false)
  })

  it('refuses an empty update', () => {
    const result = profileUpdateSchema.safeParse({})
    expect(result.success).toBe(false)
    expect(firstIssue(result).message).toBe('Nothing to update: send fullName, avatarUrl, timeZone or phone.')
  })
})
