/** Builds response headers from any number of Set-Cookie values. */
export function withCookies(cookies: (string | null | undefined)[], init: Record<string, string> = {}): Headers {
  const headers = new Headers(init)
  for (const cookie of cookies) if (cookie) headers.append('Set-Cookie', cookie)
  return headers
}
