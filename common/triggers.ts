/** Trigger URLs (docs/decisions/027): what their secrets look like and how often one may fire. */
export const TRIGGER_SECRET_PREFIX = 'trg_'
export const TRIGGER_RATE_LIMIT = { limit: 60, windowSeconds: 60 } as const
/** Where a trigger URL points, under the site's address. */
export const triggerPath = (secret: string) => `/api/triggers/${secret}`
