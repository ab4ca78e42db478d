import type { AppLoadContext, HeadersFunction } from 'react-router'

// Public pages may be kept briefly by a CDN (issue 3, SEO). Only a response that cannot differ
// between visitors may be shared: no session and no cookie at all in the request (the theme and
// consent cookies change the HTML too), and no Set-Cookie in the answer.
export const PUBLIC_PAGE_CACHE = 'public, max-age=60, s-maxage=300'
export const PRIVATE_PAGE_CACHE = 'private, no-store'

/** The Cache-Control a public page's loader asks for, decided from the request. */
export function publicPageCacheControl(request: Request, context: Pick<AppLoadContext, 'user'>): string {
  return !context.user && !request.headers.get('Cookie') ? PUBLIC_PAGE_CACHE : PRIVATE_PAGE_CACHE
}

/** A route `headers` export that passes on its loader's decision, and never shares errors or cookies. */
export const publicPageHeaders: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders }) => {
  const shareable = !errorHeaders && !parentHeaders.has('Set-Cookie') && !loaderHeaders.has('Set-Cookie') && loaderHeaders.get('Cache-Control') === PUBLIC_PAGE_CACHE
  const headers = new Headers({ 'Cache-Control': shareable ? PUBLIC_PAGE_CACHE : PRIVATE_PAGE_CACHE })
  if (shareable) headers.set('Vary', 'Cookie')
  return headers
}
