import type { AppLoadContext, MetaDescriptor } from 'react-router'

export interface SeoInput {
  /** The page title, built from the site name of System Settings. */
  title: (siteName: string) => string
  /** Defaults to the site description of System Settings. */
  description?: string
  /** The page's path, e.g. '/blog/my-post'; the canonical URL is PUBLIC_URL + path. */
  path: string
  keywords?: string[]
  type?: 'website' | 'article'
  /** Absolute or root-relative social-card image; defaults to the title card rendered by /og.png. */
  image?: string
  /** What crawlers may do with the page; public pages are indexed. */
  robots?: 'index,follow' | 'noindex,follow' | 'noindex,nofollow'
}

const DEFAULT_KEYWORDS = ['AI automation', 'browser automation', 'desktop automation', 'workflow automation', 'Aether']

/**
 * Every tag a public page needs: title, description, keywords, canonical, Open Graph, Twitter,
 * robots. Built in the loader, so the texts travel as loader data and no page ships this code or
 * its strings in its JavaScript (docs/decisions/008-page-weight.md); `meta` returns them.
 */
export async function seo(input: SeoInput, context: Pick<AppLoadContext, 'services' | 'publicUrl'>): Promise<MetaDescriptor[]> {
  const settings = await context.services.settings.get()
  const { siteName } = settings
  const title = input.title(siteName)
  const description = input.description ?? settings.description
  const url = `${context.publicUrl}${input.path}`
  const image = absolute(input.image ?? ogImagePath(title, context), context.publicUrl)
  return [
    { title },
    { name: 'description', content: description },
    { name: 'keywords', content: (input.keywords ?? DEFAULT_KEYWORDS).join(', ') },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:site_name', content: siteName },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    { property: 'og:image:width', content: '1200' },
    { property: 'og:image:height', content: '630' },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: image },
    { name: 'robots', content: input.robots ?? 'index,follow' },
  ]
}

/**
 * The social card of a title, rendered by /og.png: signed, so that the card server renders only
 * titles our pages asked for (an unsigned title answers 404).
 */
export function ogImagePath(title: string, context: Pick<AppLoadContext, 'services'>): string {
  const signature = context.services.urlSigner.sign(OG_IMAGE_PURPOSE, title)
  return `/og.png?title=${encodeURIComponent(title)}&sig=${signature}`
}

export const OG_IMAGE_PURPOSE = 'og-image-title'

function absolute(href: string, base: string): string {
  return /^https?:\/\//.test(href) ? href : `${base}${href}`
}
