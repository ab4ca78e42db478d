import type { MetaDescriptor } from 'react-router'

export interface SeoInput {
  title: string
  description: string
  /** The page's path, e.g. '/blog/my-post'; the canonical URL is PUBLIC_URL + path. */
  path: string
  keywords?: string[]
  type?: 'website' | 'article'
  /** Absolute or root-relative social-card image; defaults to the title card rendered by /og.png. */
  image?: string
  noindex?: boolean
}

export interface SeoSite {
  publicUrl: string
  siteName: string
}

const DEFAULT_KEYWORDS = ['AI automation', 'browser automation', 'desktop automation', 'workflow automation', 'Aether']

/** Every tag a public page needs: title, description, keywords, canonical, Open Graph, Twitter, robots. */
export function seo(input: SeoInput, site: SeoSite): MetaDescriptor[] {
  const url = `${site.publicUrl}${input.path}`
  const image = absolute(input.image ?? `/og.png?title=${encodeURIComponent(input.title)}`, site.publicUrl)
  return [
    { title: input.title },
    { name: 'description', content: input.description },
    { name: 'keywords', content: (input.keywords ?? DEFAULT_KEYWORDS).join(', ') },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:site_name', content: site.siteName },
    { property: 'og:title', content: input.title },
    { property: 'og:description', content: input.description },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    { property: 'og:image:width', content: '1200' },
    { property: 'og:image:height', content: '630' },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: input.title },
    { name: 'twitter:description', content: input.description },
    { name: 'twitter:image', content: image },
    { name: 'robots', content: input.noindex ? 'noindex,nofollow' : 'index,follow' },
  ]
}

/** The site facts the root loader provides, read from a meta function's matches. */
export function seoSite(matches: readonly ({ id: string; data?: unknown } | undefined)[]): SeoSite {
  const root = matches.find((match) => match?.id === 'root')?.data as { publicUrl?: string; siteName?: string } | undefined
  return { publicUrl: root?.publicUrl ?? '', siteName: root?.siteName ?? 'Aether' }
}

function absolute(href: string, base: string): string {
  return /^https?:\/\//.test(href) ? href : `${base}${href}`
}
