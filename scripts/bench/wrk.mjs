// Requests per second of one URL with wrk (Debian's `wrk` package): a C load generator whose
// threads use epoll, so on a 2-core machine it can drive several times what one Node process
// (autocannon) can. The result has the shape of throughput.mjs's measure().
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const CANDIDATES = ['/usr/bin/wrk', '/usr/local/bin/wrk']

export function findWrk() {
  if (process.env.WRK_PATH) return existsSync(process.env.WRK_PATH) ? process.env.WRK_PATH : null
  return CANDIDATES.find((candidate) => existsSync(candidate)) ?? null
}

export function wrkVersion(binary) {
  const result = spawnSync(binary, ['-v'], { encoding: 'utf8', timeout: 5_000 })
  return /wrk\s+([\d.]+)/.exec(`${result.stdout}${result.stderr}`)?.[1] ?? null
}

/**
 * @param {string} binary wrk's path
 * @param {string} url an http://127.0.0.1 URL
 * @param {{connections: number, duration: number, headers: Record<string, string>, threads?: number}} options duration in seconds
 */
export async function measureWithWrk(binary, url, { connections, duration, headers, threads = 2 }) {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) throw new Error(`refusing to load a non-loopback target: ${url}`)
  const args = [
    `--threads=${Math.max(1, Math.min(threads, connections))}`,
    `--connections=${connections}`,
    `--duration=${duration}s`,
    '--timeout=10s',
    '--latency',
    ...Object.entries(headers).flatMap(([name, value]) => ['--header', `${name}: ${value}`]),
    url,
  ]
  const output = await new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let text = ''
    child.stdout.on('data', (chunk) => (text += chunk))
    child.stderr.on('data', (chunk) => (text += chunk))
    const guard = setTimeout(() => child.kill('SIGKILL'), (duration + 30) * 1000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(guard)
      if (code === 0) resolve(text)
      else reject(new Error(`wrk exited with ${code}: ${text.trim().split('\n').slice(-3).join(' ')}`))
    })
  })
  return { url, connections, duration, ...parseWrk(output) }
}

const MS = { us: 0.001, ms: 1, s: 1000, m: 60_000 }
const milliseconds = (value, unit) => Number((Number(value) * MS[unit]).toFixed(2))

/** The figures of wrk's report (with --latency). */
export function parseWrk(text) {
  const number = (pattern) => {
    const match = pattern.exec(text)
    return match ? Number(match[1]) : 0
  }
  const latency = (label) => {
    const match = new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(text)
    return match ? milliseconds(match[1], match[2]) : null
  }
  const average = /^\s*Latency\s+([\d.]+)(us|ms|s|m)\s/m.exec(text)
  const max = /^\s*Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s|m)\s/m.exec(text)
  const requests = number(/^\s*(\d+) requests in /m)
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text)
  const non2xx = number(/Non-2xx or 3xx responses: (\d+)/)
  const bytes = /requests in [\d.]+\w+, ([\d.]+)(B|KB|MB|GB) read/.exec(text)
  const bytesRead = bytes ? Number(bytes[1]) * { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[bytes[2]] : null
  return {
    requestsPerSecond: Math.round(number(/^Requests\/sec:\s+([\d.]+)/m)),
    requests,
    ok: requests - non2xx,
    non2xx,
    errors: socketErrors ? Number(socketErrors[1]) + Number(socketErrors[2]) + Number(socketErrors[3]) : 0,
    timeouts: socketErrors ? Number(socketErrors[4]) : 0,
    latencyMs: {
      average: average ? milliseconds(average[1], average[2]) : null,
      p50: latency('50%'),
      p99: latency('99%'),
      max: max ? milliseconds(max[1], max[2]) : null,
    },
    bytesPerRequest: bytesRead && requests ? Math.round(bytesRead / requests) : null,
  }
}
