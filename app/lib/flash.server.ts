import { createCookie } from 'react-router'

export interface Flash {
  type: 'success' | 'error' | 'info'
  title: string
  description?: string
  /** The page shows it itself (the verification banner, without JavaScript too), so no toast repeats it. */
  inline?: boolean
}

// A one-shot message carried across a redirect (e.g. 'Welcome back!' after signing in).
const flashCookie = createCookie('aether_flash', { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 60 })

export async function flashHeader(flash: Flash): Promise<string> {
  return flashCookie.serialize(flash)
}

export async function readFlash(request: Request): Promise<{ flash: Flash | null; clear: string | null }> {
  const value: unknown = await flashCookie.parse(request.headers.get('cookie'))
  if (!value || typeof value !== 'object' || !('title' in value)) return { flash: null, clear: null }
  return { flash: value as Flash, clear: await flashCookie.serialize('', { maxAge: 0 }) }
}
