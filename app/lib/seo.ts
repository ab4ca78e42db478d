import type { MetaDescriptor } from 'react-router'

/** A page's `meta` export: the tags its loader built with `seo()` from `seo.server.ts`. */
export function loaderMeta({ loaderData }: { loaderData?: { meta?: MetaDescriptor[] } | null }): MetaDescriptor[] {
  return loaderData?.meta ?? []
}

interface MatchesArg {
  matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>
}

/** The site name from System Settings, as the root loader read it. */
export function siteNameOf(matches: MatchesArg['matches']): string {
  const root = matches.find((match) => match?.id === 'root')?.data as { siteName?: string } | undefined
  return root?.siteName ?? 'Aether'
}

/** `meta` of a page crawlers should not index: '{title} | {site name}' and robots noindex. */
export function privatePageMeta(title: string) {
  return ({ matches }: MatchesArg): MetaDescriptor[] => [
    { title: `${title} | ${siteNameOf(matches)}` },
    { name: 'robots', content: 'noindex' },
  ]
}
