const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Our rows' ids are UUIDs; anything else is as unknown as a missing one (and never reaches a uuid column). */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value)
