import { z } from './zod.ts'

// Time zones for schedules (docs/decisions/036), apart from the schedules themselves so that the
// pages that only name or show a zone (Settings, lists) do not load the cron library.

/** A name of the IANA time zone database the runtime knows ('Europe/Berlin', 'UTC'); no bare offsets. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** The zone's own spelling when only the letter case differs ('europe/berlin' -> 'Europe/Berlin'); aliases stay as given. */
function zoneSpelling(name: string): string {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name
}

/** The zones to offer in a picker: the runtime's list, with UTC. */
export function timeZoneNames(): string[] {
  const names = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return names.includes('UTC') ? names : ['UTC', ...names]
}

const TIME_ZONE_MESSAGE = 'Time zone must be an IANA time zone name, such as Europe/Berlin, America/New_York or UTC.'
export const timeZoneSchema = z
  .string({ error: TIME_ZONE_MESSAGE })
  .trim()
  .min(1, TIME_ZONE_MESSAGE)
  .max(64, 'Time zone must be at most 64 characters.')
  .refine(isTimeZone, TIME_ZONE_MESSAGE)
  .transform(zoneSpelling)
  .meta({ description: 'IANA time zone the times are in, e.g. Europe/Berlin; runs follow its daylight-saving changes' })

const labelFormats = new Map<string, Intl.DateTimeFormat>()
/** A run's time as a person reads it in a zone: "Mon, Mar 30, 2026, 09:00". */
export function runTimeLabel(date: Date, timeZone: string): string {
  let format = labelFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    labelFormats.set(timeZone, format)
  }
  return format.format(date)
}
