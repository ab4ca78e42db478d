import { describe, expect, it } from 'vitest'
import { accountSettingsSchema } from './account.ts'
import { profileUpdateSchema } from './auth.ts'
import { PHONE_MESSAGE, phoneSchema } from './phone.ts'
import { adminUserUpdateSchema } from './users.ts'

// The profile's phone number (issue 27, item 13): optional, E.164, validated on the server.

describe('phoneSchema', () => {
  it('accepts E.164 numbers and keeps them as they are', () => {
    for (const phone of ['+14155550123', '+442071838750', '+4930123456', '+8613800138000', '+1234567', '+123456789012345']) {
      expect(phoneSchema.parse(phone)).toBe(phone)
    }
  })

  it('drops the spaces, dots, dashes and brackets people type between the digits', () => {
    expect(phoneSchema.parse('+1 (415) 555-0123')).toBe('+14155550123')
    expect(phoneSchema.parse(' +44 20.7183.8750 ')).toBe('+442071838750')
  })

  it('reads blank and null as no number', () => {
    expect(phoneSchema.parse('')).toBeNull()
    expect(phoneSchema.parse('   ')).toBeNull()
    expect(phoneSchema.parse(null)).toBeNull()
  })

  it('refuses anything else with one clear message', () => {
    for (const phone of [
      '4155550123',
      '0014155550123',
      '+04155550123',
      '+1415555012345678',
      '+123456',
      '+1 415 CALL NOW',
      '+1415555O123',
      'tel:+14155550123',
      '+1/415/555',
      '+'.repeat(41),
    ]) {
      const result = phoneSchema.safeParse(phone)
      expect(result.success, phone).toBe(false)
      expect(result.error?.issues[0]?.message).toBe(PHONE_MESSAGE)
    }
    expect(PHONE_MESSAGE).toContain('+14155550123')
    expect(phoneSchema.safeParse(14155550123).success).toBe(false)
  })
})

describe('where a phone number is given', () => {
  it('profile updates take phone, phone_number and phoneNumber', () => {
    expect(profileUpdateSchema.parse({ phone: '+14155550123' })).toEqual({ phone: '+14155550123' })
    expect(profileUpdateSchema.parse({ phone_number: '+1 415 555 0123' })).toEqual({ phone: '+14155550123' })
    expect(profileUpdateSchema.parse({ phoneNumber: null })).toEqual({ phone: null })
    const bad = profileUpdateSchema.safeParse({ phone_number: '555-0123' })
    expect(bad.error?.issues[0]).toMatchObject({ path: ['phone'], message: PHONE_MESSAGE })
  })

  it("the admin's edit takes it with the same aliases", () => {
    expect(adminUserUpdateSchema.parse({ phoneNumber: '+14155550123' })).toEqual({ phone: '+14155550123' })
    expect(adminUserUpdateSchema.safeParse({ phone: 'nope' }).error?.issues[0]?.message).toBe(PHONE_MESSAGE)
  })

  it('the Settings form leaves it empty or checks it', () => {
    const base = { email: 'a@example.com', fullName: 'Ada Lovelace' }
    expect(accountSettingsSchema.parse(base).phone).toBeNull()
    expect(accountSettingsSchema.parse({ ...base, phone: '+14155550123' }).phone).toBe('+14155550123')
    expect(accountSettingsSchema.safeParse({ ...base, phone: '12345' }).error?.issues[0]).toMatchObject({
      path: ['phone'],
      message: PHONE_MESSAGE,
    })
  })
})
