import { data, type HeadersArgs } from 'react-router'

/**
 * Marketing pages that read the database ('/' shows the plans): browsers keep a visitor's copy a
 * minute, shared caches (a CDN) five minutes.
 */
export const MARKETING_CACHE_CONTROL = 'public, max-age=60, s-maxage=300'
const PRIVATE_CACHE_CONTROL = 'private, no-store'

/** The loader decides: a signed-in visitor's page shows their account, so it is never shared. */
export function marketingData<T>(value: T, signedIn: boolean) {
  return data(value, { headers: { 'Cache-Control': signedIn ? PRIVATE_CACHE_CONTROL : MARKETING_CACHE_CONTROL } })
}

/**
 * headers() of a marketing page: the loader's choice, unless an action answered or this response
 * sets a cookie (the flash cookie being cleared) — those are never cached. The theme and session
 * cookies change the HTML, hence Vary: Cookie.
 */
export function marketingHeaders({ loaderHeaders, parentHeaders, actionHeaders }: HeadersArgs): Headers {
  const setsCookie = [loaderHeaders, parentHeaders, actionHeaders].some((headers) => headers.has('Set-Cookie'))
  const answeredAction = actionHeaders.has('Cache-Control')
  const cacheControl = setsCookie || answeredAction ? PRIVATE_CACHE_CONTROL : (loaderHeaders.get('Cache-Control') ?? PRIVATE_CACHE_CONTROL)
  return new Headers({ 'Cache-Control': cacheControl, Vary: 'Cookie' })
}
