import { data, type AppLoadContext, type HeadersArgs } from 'react-router'

/**
 * Public pages may be kept briefly by a CDN. Only a response that cannot differ between visitors
 * is shared: no session and no cookie at all in the request (the theme and consent cookies change
 * the HTML too), no Set-Cookie and no action in the answer, and no error.
 */
export const PAGE_CACHE = {
  /** Pages that read the database (home, services, blog): a minute in browsers, five in a CDN. */
  dynamic: 'public, max-age=60, s-maxage=300',
  /** Pages whose text changes only with a deploy (company and legal pages). */
  static: 'public, max-age=300, s-maxage=3600',
  private: 'private, no-store',
} as const

export type PageCachePolicy = 'dynamic' | 'static'

export function pageCacheControl(request: Request, context: Pick<AppLoadContext, 'user'>, policy: PageCachePolicy): string {
  return !context.user && !request.headers.get('Cookie') ? PAGE_CACHE[policy] : PAGE_CACHE.private
}

/** A public page's loader result, carrying its Cache-Control decision. */
export function publicPageData<T>(value: T, request: Request, context: Pick<AppLoadContext, 'user'>, policy: PageCachePolicy) {
  return data(value, { headers: { 'Cache-Control': pageCacheControl(request, context, policy) } })
}

/** A public page's `headers` export: the loader's decision, unless anything makes it personal. */
export function publicPageHeaders({ loaderHeaders, parentHeaders, actionHeaders, errorHeaders }: HeadersArgs): Headers {
  const fromLoader = loaderHeaders.get('Cache-Control')
  const personal =
    Boolean(errorHeaders) ||
    actionHeaders.has('Cache-Control') ||
    [loaderHeaders, parentHeaders, actionHeaders].some((headers) => headers.has('Set-Cookie'))
  const shared = !personal && (fromLoader === PAGE_CACHE.dynamic || fromLoader === PAGE_CACHE.static)
  const headers = new Headers({ 'Cache-Control': shared && fromLoader ? fromLoader : PAGE_CACHE.private })
  headers.set('Vary', 'Cookie')
  return headers
}
