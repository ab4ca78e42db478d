// Keeps every core of this machine busy (one busy loop per core, at normal priority) while a
// command runs, then stops: `node scripts/ci/cpu-hog.mjs -- bash .ci/run`. For checking that the
// test suites hold under CPU contention (issue 12); the hog ends with the command, or after
// --max-seconds (default 7200) whatever happens.
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'

const args = process.argv.slice(2)
const split = args.indexOf('--')
const command = split === -1 ? [] : args.slice(split + 1)
const maxIndex = args.indexOf('--max-seconds')
const maxSeconds = maxIndex === -1 ? 7200 : Number(args[maxIndex + 1])
if (!command.length) {
  console.error('usage: node scripts/ci/cpu-hog.mjs [--max-seconds N] -- <command> [args...]')
  process.exit(2)
}

const hogs = Array.from({ length: availableParallelism() }, () => new Worker('for (;;) { Math.sqrt(Math.random()) }', { eval: true }))
const stop = () => Promise.all(hogs.map((hog) => hog.terminate()))
const deadline = setTimeout(() => void stop(), maxSeconds * 1000)
console.log(`cpu-hog: ${hogs.length} busy loops while: ${command.join(' ')}`)
const child = spawn(command[0], command.slice(1), { stdio: 'inherit' })
child.on('exit', async (code, signal) => {
  clearTimeout(deadline)
  await stop()
  process.exit(code ?? (signal ? 1 : 0))
})
