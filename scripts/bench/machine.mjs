// The machine a benchmark ran on, saved with its results: the figures depend on its CPUs and load.
import os from 'node:os'

export const loadAverage = () => os.loadavg().map((value) => Number(value.toFixed(2)))

/** CPUs, memory and the load average now; the caller sets `loadAverageEnd` when it finishes. */
export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    totalMemoryMb: Math.round(os.totalmem() / 2 ** 20),
    loadAverageStart: loadAverage(),
    loadAverageEnd: null,
  }
}
