import type { Credential, SessionUser } from '#server/features/auth/session.service.ts'
import type { Services } from '#server/services.ts'

/** What every loader and action receives as `context`: the services and the caller. */
export type PageContext = {
  services: Services
  user: SessionUser | null
  /** What the request signed in with (the session cookie: pages take nothing else), for sign-out and password changes. */
  credential: Credential | null
  cspNonce: string
  clientIp: string
  publicUrl: string
  /** This request found an admin's view as a member over (docs/decisions/064): the root loader says so once. */
  viewAsEnded?: ViewAsEnded
  /** An unexpected loader or action error (entry.server.tsx's handleError): logged, or a database outage that makes the page a 503. */
  reportError(error: unknown): void
}

/** Viewing as `email` ended (the 30 minutes were up, or the member's sessions ended) before this page. */
export interface ViewAsEnded {
  email: string | null
  expired: boolean
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- module augmentation
  interface AppLoadContext extends PageContext {}
}
