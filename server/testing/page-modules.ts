import routes from '#app/routes.ts'
import type { PageContext } from '#server/http/page-context.ts'

/** A loader or an action of a route module, called as React Router calls it. */
export type PageFunction = (args: { request: Request; params: Record<string, string>; context: PageContext }) => Promise<unknown>
export interface PageModule {
  loader?: PageFunction
  action?: PageFunction
}

const modules = import.meta.glob<PageModule>('/app/routes/*.{ts,tsx}')

type RouteEntry = { file: string; path?: string; children?: RouteEntry[] }

/** Every page of app/routes.ts: its address (`:id` kept), its module file and a loader for the module. */
export function pageRoutes(): { path: string; file: string; load: () => Promise<PageModule> }[] {
  const walk = (entries: RouteEntry[], prefix: string): { path: string; file: string }[] =>
    entries.flatMap((entry) => {
      const path = entry.path === undefined ? prefix : `${prefix}/${entry.path}`.replace(/\/+/g, '/')
      return [{ path: path || '/', file: entry.file }, ...walk(entry.children ?? [], path)]
    })
  return walk(routes as RouteEntry[], '').map((route) => {
    const load = modules[`/app/${route.file}`]
    if (!load) throw new Error(`${route.file} is not in app/routes/`)
    return { ...route, load }
  })
}

/** What a loader or action answered, thrown or returned: a Response, data() with a status, or plain data (200). */
export async function pageOutcome(run: () => Promise<unknown>): Promise<{ status: number; location: string | null; error?: unknown }> {
  let result: unknown
  try {
    result = await run()
  } catch (thrown) {
    if (!(thrown instanceof Response) && !(thrown as { init?: unknown } | null)?.init) return { status: 500, location: null, error: thrown }
    result = thrown
  }
  if (result instanceof Response) return { status: result.status, location: result.headers.get('location') }
  const init = (result as { init?: ResponseInit | null } | null)?.init
  return { status: init?.status ?? 200, location: null }
}
