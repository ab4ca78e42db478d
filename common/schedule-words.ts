import type { Weekday, ZonedSchedule } from './schedules.ts'

// A schedule in words (docs/decisions/036): what lists, the builder and run pages say of it.

const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
}

const plural = (day: Weekday) => `${WEEKDAY_NAMES[day]}s`
const WEEKDAYS_MON_FRI: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri']

function daysWords(days: readonly Weekday[]): string {
  if (days.length === 7) return 'Daily'
  if (days.length === 5 && WEEKDAYS_MON_FRI.every((day) => days.includes(day))) return 'Weekdays'
  if (days.length === 2 && days.includes('sat') && days.includes('sun')) return 'Weekends'
  const names = days.map(plural)
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/**
 * The schedule in words: "Weekdays at 09:00, Europe/Berlin", "Every 15 minutes", "Daily at 07:30,
 * UTC", "Mondays and Thursdays at 18:00, America/New_York", "Monthly on day 1 at 06:00,
 * Europe/London". Whether it is paused is said beside it, not in it.
 */
export function describeSchedule(schedule: ZonedSchedule): string {
  switch (schedule.kind) {
    case 'interval':
      if (schedule.unit === 'minutes') return schedule.every === 1 ? 'Every minute' : `Every ${schedule.every} minutes`
      return schedule.every === 1
        ? `Every hour, on the hour, ${schedule.timeZone}`
        : `Every ${schedule.every} hours from 00:00, ${schedule.timeZone}`
    case 'daily':
      return `Daily at ${schedule.time}, ${schedule.timeZone}`
    case 'weekly':
      return `${daysWords(schedule.days)} at ${schedule.time}, ${schedule.timeZone}`
    case 'monthly': {
      const shorter = schedule.day > 28 ? ' (the last day in shorter months)' : ''
      return `Monthly on day ${schedule.day}${shorter} at ${schedule.time}, ${schedule.timeZone}`
    }
    case 'cron':
      return `Custom (cron) “${schedule.expression}”, ${schedule.timeZone}`
  }
}
