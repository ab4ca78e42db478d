// Child-process helpers for the page benchmark: free ports, waiting, and stopping by PID.
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

/** A free TCP port on 127.0.0.1 (the OS picks it; we release it right away). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Keeps the last `max` characters a stream wrote, for error messages. */
export function tail(stream, max = 4000) {
  const state = { text: '' }
  stream?.setEncoding('utf8')
  stream?.on('data', (chunk) => {
    state.text = (state.text + chunk).slice(-max)
  })
  return state
}

function isRunning(child) {
  return child.exitCode === null && child.signalCode === null
}

/** Resolves when the child exits, or after `ms` (returns false then). */
function waitForExit(child, ms) {
  if (!isRunning(child)) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}

/** Sends each signal in turn to this child's PID only, waiting `graceMs` after each, then SIGKILL. */
export async function stopChild(child, { signals = ['SIGTERM'], graceMs = 10_000 } = {}) {
  for (const signal of [...signals, 'SIGKILL']) {
    if (!child || !isRunning(child)) return
    try {
      process.kill(child.pid, signal)
    } catch {
      return
    }
    if (await waitForExit(child, signal === 'SIGKILL' ? 5_000 : graceMs)) return
  }
}

/** Runs a command to completion with inherited output; rejects on a non-zero exit or timeout. */
export async function run(command, args, { timeoutMs, ...options } = {}) {
  const child = spawn(command, args, { stdio: 'inherit', ...options })
  const done = new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    )
  })
  const finished = await Promise.race([done.then(() => true), sleep(timeoutMs).then(() => false)])
  if (!finished) {
    await stopChild(child)
    throw new Error(`${command} ${args.join(' ')} timed out after ${Math.round(timeoutMs / 1000)} s`)
  }
}

/** Polls `url` until it answers 2xx, the child dies, or `timeoutMs` passes. */
export async function waitForHttp(url, { child, timeoutMs, log }) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child && !isRunning(child)) {
      throw new Error(`the process exited (${child.signalCode ?? `exit ${child.exitCode}`}) before ${url} answered`)
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await sleep(250)
  }
  throw new Error(`${url} did not answer within ${Math.round(timeoutMs / 1000)} s${log?.text ? `\n${log.text}` : ''}`)
}
