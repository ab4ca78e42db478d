import { describe, expect, it } from 'vitest'
import { defaultSiteConfig } from '#common/site.ts'
import { escapeJsonForScript, organizationJsonLd } from './organization-json-ld.ts'

describe('organizationJsonLd', () => {
  it('describes the company from the site configuration', () => {
    const parsed = JSON.parse(organizationJsonLd(defaultSiteConfig, 'https://aether.example')) as Record<string, unknown>
    expect(parsed).toMatchObject({
      '@type': 'Organization',
      name: 'Aether',
      url: 'https://aether.example/',
      email: defaultSiteConfig.contactEmail,
      foundingDate: '2022',
    })
  })

  it('cannot close its script element', () => {
    const hostile = { ...defaultSiteConfig, companyName: '</script><script>alert(1)</script> & co' }
    const text = organizationJsonLd(hostile, 'https://aether.example')
    expect(text).not.toMatch(/[<>&]/)
    expect((JSON.parse(text) as { name: string }).name).toBe(hostile.companyName)
    expect(escapeJsonForScript('"\u2028"')).toBe('"\\u2028"')
  })
})
