// Requests per second of one URL with autocannon, bounded in time.
import autocannon from 'autocannon'

/**
 * @param {string} url an http://127.0.0.1 URL
 * @param {{connections: number, duration: number, headers: Record<string, string>}} options duration in seconds
 */
export async function measure(url, { connections, duration, headers }) {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) throw new Error(`refusing to load a non-loopback target: ${url}`)
  const instance = autocannon({ url, connections, duration, headers, timeout: 10 })
  // autocannon stops itself after `duration`; this is a guard in case it does not.
  const guard = setTimeout(() => instance.stop(), (duration + 30) * 1000)
  try {
    const result = await instance
    const ok = result['2xx']
    return {
      url,
      connections,
      duration,
      requestsPerSecond: Math.round(result.requests.average),
      requests: result.requests.total,
      ok,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      latencyMs: {
        average: Number(result.latency.average.toFixed(2)),
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
      },
      bytesPerRequest: result.requests.total ? Math.round(result.throughput.total / result.requests.total) : null,
    }
  } finally {
    clearTimeout(guard)
  }
}
