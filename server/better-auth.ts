import type { APIError } from 'better-auth/api'
import type { AuthOptions } from './auth.ts'
import type { BetterAuthInstance } from './better-auth-config.ts'

/** Better Auth's error class, known once Better Auth is loaded (nothing can throw one before). */
let apiErrorClass: typeof APIError | null = null

/** Whether `error` is an error of a Better Auth endpoint (its status and code say why). */
export function isAuthApiError(error: unknown): error is APIError {
  return apiErrorClass !== null && error instanceof apiErrorClass
}

/**
 * Better Auth (configured in better-auth-config.ts), loaded and built on its first use: a sign-in,
 * sign-up, password or second-factor change, a session Better Auth must refresh, Google's
 * callback. Pages, the API and health checks of visitors and signed-in members do not need it, so
 * a start does not wait for it (issue 18, cold start). `api` calls the endpoint of that name once
 * loaded; only calls go through, not the endpoints' other properties.
 */
export function createAuth(options: AuthOptions) {
  let loading: Promise<BetterAuthInstance> | null = null
  const instance = () =>
    (loading ??= import('./better-auth-config.ts').then((module) => {
      apiErrorClass = module.APIError
      return module.buildAuth(options)
    }))
  type Endpoint = (...args: unknown[]) => Promise<unknown>
  const api = new Proxy({} as BetterAuthInstance['api'], {
    get(_target, name) {
      // Not an endpoint: keeps the object from looking like a promise, or printable, to callers.
      if (typeof name !== 'string' || name === 'then') return undefined
      return async (...args: unknown[]) => ((await instance()).api as unknown as Record<string, Endpoint>)[name]!(...args)
    },
  })
  return {
    api,
    handler: async (request: Request) => (await instance()).handler(request),
    get $context(): BetterAuthInstance['$context'] {
      return instance().then((auth) => auth.$context)
    },
    /** The Better Auth instance itself, loading it if needed. */
    instance,
  }
}

export type Auth = ReturnType<typeof createAuth>
