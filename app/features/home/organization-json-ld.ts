import type { SiteConfig } from '#common/site.ts'

/**
 * schema.org Organization for the home page, as text safe inside a <script> element: '<', '>'
 * and '&' are escaped, so no value (all come from configuration) can close the element.
 */
export function organizationJsonLd(site: SiteConfig, publicUrl: string): string {
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: site.companyName,
    url: `${publicUrl}/`,
    logo: `${publicUrl}/favicon.svg`,
    email: site.contactEmail,
    foundingDate: String(site.foundedYear),
    founder: { '@type': 'Person', name: site.founder.name, jobTitle: site.founder.role },
    contactPoint: { '@type': 'ContactPoint', contactType: 'customer support', email: site.supportEmail },
    sameAs: [site.links.twitter, site.links.linkedin, site.links.github],
  }
  return escapeJsonForScript(JSON.stringify(organization))
}

export function escapeJsonForScript(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
