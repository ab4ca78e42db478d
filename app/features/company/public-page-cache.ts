import { data, type HeadersArgs } from 'react-router'

/** Anonymous visitors' copy of a static public page: browsers keep it 5 minutes, shared caches an hour. */
export const PUBLIC_PAGE_CACHE_CONTROL = 'public, max-age=300, s-maxage=3600'
const PRIVATE_CACHE_CONTROL = 'private, no-store'

/**
 * Loader of a static public page. A signed-in visitor's page shows their account in the header,
 * so it must never land in a shared cache. The theme cookie changes the HTML too: hence Vary.
 */
export function publicPageLoader(signedIn: boolean) {
  return data(null, { headers: { 'Cache-Control': signedIn ? PRIVATE_CACHE_CONTROL : PUBLIC_PAGE_CACHE_CONTROL } })
}

/**
 * headers() of a static public page: the loader's choice, unless an action answered (never cached)
 * or a cookie is being set in this response (for example the flash cookie being cleared).
 */
export function publicPageHeaders({ loaderHeaders, parentHeaders, actionHeaders }: HeadersArgs): Headers {
  const setsCookie = [loaderHeaders, parentHeaders, actionHeaders].some((headers) => headers.has('Set-Cookie'))
  const fromAction = actionHeaders.get('Cache-Control')
  const fromLoader = loaderHeaders.get('Cache-Control')
  const cacheControl = fromAction ?? (setsCookie ? PRIVATE_CACHE_CONTROL : (fromLoader ?? PRIVATE_CACHE_CONTROL))
  return new Headers({ 'Cache-Control': cacheControl, Vary: 'Cookie' })
}
