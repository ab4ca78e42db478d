// Where the machine's cores went during a measurement: the server, PostgreSQL, the load
// generator (this process), everything else, idle, and time the hypervisor took (steal). A ratio
// such as "two processes against one" is the server's only when the machine had cores left over.
// PostgreSQL is every `postgres` process on the machine: measure on a machine doing nothing else.
import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'

const CLOCK_TICKS_PER_SECOND = 100
// Below this share of the machine idle, the run was bound by the machine, not by the server.
const IDLE_FLOOR = 0.1

/** Seconds of the whole machine (all CPUs): busy, idle (with I/O wait) and stolen by the hypervisor. */
function machineSeconds() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number)
  const toSeconds = (ticks) => ticks / CLOCK_TICKS_PER_SECOND
  return { busy: toSeconds(user + nice + system + irq + softirq), idle: toSeconds(idle + iowait), steal: toSeconds(steal) }
}

/**
 * CPU seconds of each process whose command is `postgres` (the server and its backends), by PID.
 * Between two readings a backend that ended meanwhile is left out (its seconds in between are
 * lost, never counted negative); one that started meanwhile counts all of its seconds.
 */
function postgresSecondsByPid() {
  const seconds = new Map()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      seconds.set(entry, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND)
    } catch {
      // ended meanwhile
    }
  }
  return seconds
}

function postgresSecondsSince(before) {
  let total = 0
  for (const [pid, now] of postgresSecondsByPid()) total += now - (before.get(pid) ?? 0)
  return total
}

const clientSeconds = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

/**
 * Starts counting; `stop(serverSeconds)` (the server's CPU seconds over the same time) returns the
 * average cores each part used and whether the machine was the limit.
 */
export function countCores() {
  const started = { at: performance.now(), machine: machineSeconds(), postgres: postgresSecondsByPid(), client: clientSeconds() }
  return {
    stop(serverSeconds) {
      const elapsed = (performance.now() - started.at) / 1000
      const machine = machineSeconds()
      const cores = (seconds) => Number((seconds / elapsed).toFixed(2))
      const busy = machine.busy - started.machine.busy
      const postgres = postgresSecondsSince(started.postgres)
      const client = clientSeconds() - started.client
      const cpus = os.cpus().length
      const idle = cores(machine.idle - started.machine.idle)
      return {
        cpus,
        server: cores(serverSeconds),
        postgres: cores(postgres),
        loadGenerator: cores(client),
        rest: cores(Math.max(0, busy - serverSeconds - postgres - client)),
        idle,
        stolen: cores(machine.steal - started.machine.steal),
        machineBound: idle < IDLE_FLOOR * cpus,
      }
    },
  }
}

/** "server 0.42, PostgreSQL 0.10, load generator 0.31, the rest 0.05, idle 1.12 (stolen 0.00) of 2 cores" */
export function describeCores(c) {
  return `server ${c.server}, PostgreSQL ${c.postgres}, load generator ${c.loadGenerator}, the rest ${c.rest}, idle ${c.idle} (stolen by the host ${c.stolen}) of ${c.cpus} cores${c.machineBound ? ': machine-bound, no core was left for the server' : ''}`
}
