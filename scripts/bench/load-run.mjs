// Runs the load benchmark's classes at the same time and keeps every response's latency and
// status, so that percentiles are exact and per class.
//
// autocannon's rate is a quota per connection and second: a connection sends its share back to
// back from the start of its second, then waits for the next. With every connection of one
// instance started together, the server would see all of them at once at the top of each second
// and idle after. So each connection is its own autocannon instance (one connection, its share of
// the class's rate), and their starts are spread evenly over the first second, the classes
// interleaved: the requests arrive spread over the second, as from many independent clients.
//
// autocannon's own latency histogram is not used: with a rate it "corrects" coordinated omission
// with an expected interval of ceil(1 / rate) = 1 ms, which adds made-up samples below every real
// one.
import autocannon from 'autocannon'
import { setTimeout as sleep } from 'node:timers/promises'

/** One connection per unit, `rate` shared out; the classes' units interleaved. */
function units(classes) {
  const perClass = classes.map((entry) => {
    const connections = Math.max(1, Math.min(entry.connections, entry.rate))
    return Array.from({ length: connections }, (_, i) => ({
      entry,
      rate: Math.floor(entry.rate / connections) + (i < entry.rate % connections ? 1 : 0),
    }))
  })
  const total = perClass.reduce((acc, list) => acc + list.length, 0)
  // Spread each class's units over the run order in proportion to their count.
  return perClass
    .flatMap((list) => list.map((unit, i) => ({ ...unit, order: (i + 0.5) / list.length })))
    .sort((a, b) => a.order - b.order)
    .map((unit, index) => ({ ...unit, offsetMs: Math.round((index * 1000) / total) }))
}

async function runUnit(base, { entry, rate, offsetMs }, { duration, headers, timeout }) {
  await sleep(offsetMs)
  const record = { latencies: [], statuses: {}, errors: {}, timeouts: 0, inWindow: 0, sent: 0 }
  const windowEnd = Date.now() + duration * 1000
  const instance = autocannon({
    url: base,
    connections: 1,
    overallRate: rate,
    duration,
    timeout,
    headers,
    requests: entry.requests,
    ignoreCoordinatedOmission: true,
  })
  instance.on('response', (client, statusCode, bytes, responseTime) => {
    record.latencies.push(responseTime)
    // The quota is renewed once more as `duration` ends: answers after it do not count for the
    // throughput.
    if (Date.now() < windowEnd) record.inWindow += 1
    record.statuses[statusCode] = (record.statuses[statusCode] ?? 0) + 1
  })
  instance.on('reqError', (error) => {
    const key = error.code ?? error.message
    if (key === 'request timed out') record.timeouts += 1
    else record.errors[key] = (record.errors[key] ?? 0) + 1
  })
  // autocannon stops itself after `duration`; this is a guard in case it does not.
  const guard = setTimeout(() => instance.stop(), (duration + timeout + 30) * 1000)
  try {
    const result = await instance
    record.sent = result.requests.sent ?? 0
    return record
  } finally {
    clearTimeout(guard)
  }
}

/**
 * @param {string} base an http://127.0.0.1 origin
 * @param {{ name: string, rate: number, connections: number, requests: object[] }[]} classes
 * @param {{ duration: number, headers: Record<string, string>, timeout?: number }} options duration in seconds
 * @returns one record per class: its fields plus latencies, statuses, errors, timeouts, inWindow
 */
export async function runClasses(base, classes, { duration, headers, timeout = 10 }) {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(base)) throw new Error(`refusing to load a non-loopback target: ${base}`)
  const plan = units(classes)
  const records = await Promise.all(plan.map((unit) => runUnit(base, unit, { duration, headers, timeout })))
  return classes.map((entry) => {
    const mine = records.filter((_, i) => plan[i].entry === entry)
    const merged = { ...entry, connections: mine.length, latencies: [], statuses: {}, errors: {}, timeouts: 0, inWindow: 0, sent: 0 }
    for (const record of mine) {
      merged.latencies.push(...record.latencies)
      for (const [code, n] of Object.entries(record.statuses)) merged.statuses[code] = (merged.statuses[code] ?? 0) + n
      for (const [code, n] of Object.entries(record.errors)) merged.errors[code] = (merged.errors[code] ?? 0) + n
      merged.timeouts += record.timeouts
      merged.inWindow += record.inWindow
      merged.sent += record.sent
    }
    return merged
  })
}

/** Nearest-rank percentile of numbers sorted ascending. */
function percentile(sorted, p) {
  if (!sorted.length) return null
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

const round = (value, digits = 1) => (value == null ? null : Number(value.toFixed(digits)))

/** Latency and status figures of one or more class results taken together. */
export function summarize(records, duration) {
  const latencies = records.flatMap((record) => record.latencies).sort((a, b) => a - b)
  const statuses = {}
  const errors = {}
  let timeouts = 0
  for (const record of records) {
    for (const [code, count] of Object.entries(record.statuses)) statuses[code] = (statuses[code] ?? 0) + count
    for (const [code, count] of Object.entries(record.errors)) errors[code] = (errors[code] ?? 0) + count
    timeouts += record.timeouts
  }
  const count = (test) =>
    Object.entries(statuses)
      .filter(([code]) => test(Number(code)))
      .reduce((acc, [, n]) => acc + n, 0)
  const responses = latencies.length
  const socketErrors = Object.values(errors).reduce((acc, n) => acc + n, 0)
  return {
    targetRate: records.reduce((acc, record) => acc + record.rate, 0),
    responses,
    throughput: round(records.reduce((acc, record) => acc + record.inWindow, 0) / duration),
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p95: round(percentile(latencies, 95)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies.at(-1) ?? null),
      average: round(responses ? latencies.reduce((acc, value) => acc + value, 0) / responses : null),
    },
    statuses,
    ok: count((code) => code >= 200 && code < 300),
    rateLimited: count((code) => code === 429),
    otherNon2xx: count((code) => (code < 200 || code >= 300) && code !== 429 && code < 500),
    serverErrors: count((code) => code >= 500),
    socketErrors,
    timeouts,
    errors,
  }
}
