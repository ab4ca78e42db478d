const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Our rows' ids are UUIDs; anything else is as unknown as a missing one (and never reaches a uuid column). */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value)

/** The id no row has: what an id that is not a UUID becomes, so it is as unknown as a missing one. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000'
