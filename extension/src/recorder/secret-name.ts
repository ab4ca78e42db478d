import { PLACEHOLDER_NAME } from '#common/step-placeholders.ts'

const slug = (words: string) =>
  words
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')

/**
 * The vault name a recorded password is typed from: the site and the field, 'example_com_password'
 * ('www.' left out). The member stores the value under that name in the vault (docs/decisions/025).
 */
export function secretNameFor(pageUrl: string, fieldWords: string | null): string {
  let host = 'site'
  try {
    host = new URL(pageUrl).hostname.replace(/^www\./, '') || host
  } catch {
    // not an address: the field's words alone name it
  }
  const name = [slug(host), slug(fieldWords ?? '') || 'password'].filter(Boolean).join('_')
  const safe = (/^[a-z_]/.test(name) ? name : `site_${name}`).slice(0, 64).replace(/_+$/, '')
  return PLACEHOLDER_NAME.test(safe) ? safe : 'password'
}

/** What a recorded password field types: a vault placeholder (common/step-placeholders.ts), never the value. */
export const passwordPlaceholder = (pageUrl: string, fieldWords: string | null) => `{{secrets.${secretNameFor(pageUrl, fieldWords)}}}`
