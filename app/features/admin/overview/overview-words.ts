const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** US dollars as people write them: $1,234.50. */
export const dollars = (amount: number) => money.format(amount)

/** A signed change in dollars: +$58.00, −$12.00. */
export const dollarChange = (amount: number) => `${amount < 0 ? '−' : '+'}${money.format(Math.abs(amount))}`

/** A number with its noun: "1 run", "1,204 runs". */
export const counted = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/** A UTC day (YYYY-MM-DD) as "Dec 26". */
export const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })

/** A wait in words: "45 s", "12 min", "3 h 5 min". */
export function waitWords(seconds: number): string {
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`
}
