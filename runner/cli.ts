import { readFile, realpath, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { inputNamesOf } from '#common/run-inputs.ts'
import { hostname } from 'node:os'
import { parseArgs } from 'node:util'
import { describeSchedule } from '#common/schedule-words.ts'
import { scheduleOutputSchema, zonedOf } from '#common/schedules.ts'
import type { RunDto } from '#server/features/runs/run.dto.ts'
import packageJson from '../package.json' with { type: 'json' }
import { dataOf, TokenRefusedError } from '#sdk'
import { runnerClient } from './aether-client.ts'
import { createBrowserProfile } from './browser-profile.ts'
import { findChromium } from './chromium-path.ts'
import { signInWithProfile } from './sign-in.ts'
import { configPath, readConfig, writeConfig, type RunnerConfig } from './config-store.ts'
import { pairDevice } from './pairing.ts'
import { runAutomationLocally } from './run-locally.ts'
import { DEFAULT_POLL_MS, serveQueuedRuns } from './serve.ts'
import { watchFolder } from './watch-folder.ts'

const USAGE = `aether-runner: runs Aether automations on this machine, in your installed Chromium.

  pair --server <url> [--name <name>]   connect this machine to your Aether workspace
  status                                which server and workspace this machine is connected to
  list                                  the workspace's automations
  run <automation id> [--input name=value …] [--rows <csv file>] [--chromium <path>]
                                        run one here and report it to Run History
  allow <folder> / disallow <folder>    let desktop steps read and change files in a folder (or not)
  folders                               the folders desktop steps may use
  watch <folder> --automation <id>      run the automation each time a file appears in the folder
                                        (it gets the file's path as {{input.file}} and name as {{input.fileName}})
  serve [--every <seconds>] [--chromium <path>]
                                        wait for the runs queued for this machine (schedules, "Run on")
  sign-in <url> --profile <folder>      open Chromium at the address to sign in by hand; closing the
                                        window keeps the session in the profile
  --profile <folder>                    (run, serve, watch) start each run with that profile's
                                        sign-ins, and keep a succeeded run's session there
  forget                                disconnect this machine (revoked on the server too: its slot is free)

The credential is kept in ${configPath()} (AETHER_RUNNER_CONFIG to move it).`

const VERSION = packageJson.version

/** A line of `list`: id, name, steps, and the schedule in words (docs/decisions/036). */
export function listLine(automation: { id: string; name: string; steps: unknown[]; schedule?: unknown }): string {
  const schedule = scheduleOutputSchema.nullable().safeParse(automation.schedule ?? null)
  const when =
    schedule.success && schedule.data ? `  ${describeSchedule(zonedOf(schedule.data))}${schedule.data.paused ? ' (paused)' : ''}` : ''
  return `${automation.id}  ${automation.name} (${automation.steps.length} steps)${when}`
}

/** A folder as the config keeps it: absolute, links followed; it must exist. */
async function folderOf(given: string): Promise<string> {
  const folder = await realpath(path.resolve(given)).catch(() => null)
  if (!folder || !(await stat(folder)).isDirectory()) throw new Error(`${given} is not a folder on this machine.`)
  return folder
}

async function connected(): Promise<RunnerConfig> {
  const config = await readConfig(configPath())
  if (!config) throw new Error('This machine is not connected yet: run `pair --server <url>` first.')
  return config
}

/** The browser profile of `--profile <folder>`, when given. */
const profileOf = (folder: string | undefined) => (folder ? createBrowserProfile(folder) : undefined)
/** The runner as paired: its id and the key vault values are sealed to (docs/decisions/048). */
const deviceOf = (config: RunnerConfig) => ({ id: config.device.id, privateKey: config.privateKey })

const clientOf = (config: Pick<RunnerConfig, 'server' | 'token'>) =>
  runnerClient({ server: config.server, token: config.token, version: VERSION })

/** `--input name=value`, repeated. */
function inputsOf(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=')
      if (at < 1) throw new Error(`--input ${pair}: write it as name=value.`)
      return [pair.slice(0, at), pair.slice(at + 1)]
    }),
  )
}

function summary(run: RunDto): string {
  const lines = [`Run ${run.id}: ${run.status} (${run.actionsPerformed} actions)`]
  if (run.error) lines.push(`Error: ${run.error}`)
  if (run.extracted.length) lines.push(`Extracted ${run.extracted.length} row${run.extracted.length === 1 ? '' : 's'}.`)
  return lines.join('\n')
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      name: { type: 'string' },
      input: { type: 'string', multiple: true },
      chromium: { type: 'string' },
      every: { type: 'string' },
      rows: { type: 'string' },
      automation: { type: 'string' },
      allow: { type: 'string', multiple: true },
      profile: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const [command, argument] = positionals
  if (!command || values.help) {
    console.log(USAGE)
    return command || values.help ? 0 : 1
  }
  switch (command) {
    case 'pair': {
      if (!values.server) throw new Error('pair needs --server <url>, the address of your Aether site (e.g. https://aether.example.com).')
      const api = runnerClient({ server: values.server, version: VERSION })
      const name = values.name ?? `Runner on ${hostname()}`
      let said: string | null = null
      const paired = await pairDevice(
        api,
        { name, version: VERSION },
        (pairing) => {
          console.log(`Open ${pairing.verificationUrl} while signed in and approve the code ${pairing.userCode}.`)
          console.log(`Waiting for the approval (the code is valid for ${Math.round(pairing.expiresIn / 60)} minutes)…`)
        },
        undefined,
        (trouble) => {
          // Said once while it lasts, and again when it changes.
          if (trouble && trouble.message !== said) console.error(`${trouble.message} (still waiting for the approval)`)
          said = trouble?.message ?? null
        },
      )
      await writeConfig(configPath(), {
        server: api.server,
        token: paired.token,
        device: paired.device,
        workspace: paired.workspace,
        privateKey: paired.privateKey,
        allowedFolders: await Promise.all((values.allow ?? []).map(folderOf)),
      })
      console.log(`Connected as “${paired.device.name}” to the workspace ${paired.workspace.name}.`)
      return 0
    }
    case 'status': {
      const config = await connected()
      const me = await dataOf(clientOf(config).GET('/devices/me'))
      console.log(`Connected to ${config.server} as “${me.name}”, in the workspace ${me.workspace.name}.`)
      return 0
    }
    case 'list': {
      const automations = await dataOf(clientOf(await connected()).GET('/automations', { params: { query: { limit: 100 } } }))
      if (!automations.length) console.log('No automations in this workspace yet.')
      for (const automation of automations) console.log(listLine(automation))
      return 0
    }
    case 'run': {
      if (!argument) throw new Error('run needs the id of an automation (see `list`).')
      const chromiumPath = findChromium(values.chromium)
      if (!chromiumPath) throw new Error('Chromium or Chrome was not found: pass --chromium <path> or set CHROMIUM_PATH.')
      const config = await connected()
      const run = await runAutomationLocally({
        api: clientOf(config),
        automationId: argument,
        inputs: inputsOf(values.input ?? []),
        chromiumPath,
        allowedFolders: config.allowedFolders,
        profile: profileOf(values.profile),
        device: deviceOf(config),
        ...(values.rows ? { csv: await readFile(values.rows, 'utf8') } : {}),
      })
      console.log(summary(run))
      console.log(`${config.server}/dashboard/runs/${run.id}`)
      return run.status === 'succeeded' ? 0 : 2
    }
    case 'serve': {
      const chromiumPath = findChromium(values.chromium)
      if (!chromiumPath) throw new Error('Chromium or Chrome was not found: pass --chromium <path> or set CHROMIUM_PATH.')
      const every = Number(values.every ?? DEFAULT_POLL_MS / 1000)
      if (!Number.isFinite(every) || every < 1) throw new Error('--every takes a number of seconds, 1 or more.')
      const config = await connected()
      const stop = new AbortController()
      process.once('SIGINT', () => stop.abort())
      process.once('SIGTERM', () => stop.abort())
      console.log(`Waiting for runs queued for “${config.device.name}” (Ctrl+C stops).`)
      let revoked: TokenRefusedError | null = null
      // The same trouble (a server away, a device past its plan) is said once, not at every ask.
      let lastTrouble: string | null = null
      await serveQueuedRuns({
        api: clientOf(config),
        chromiumPath,
        signal: stop.signal,
        pollMs: every * 1000,
        allowedFolders: config.allowedFolders,
        profile: profileOf(values.profile),
        device: deviceOf(config),
        onStart: (run) => {
          lastTrouble = null
          console.log(`${run.automationName}: run ${run.id} started.`)
        },
        onRun: (run) => console.log(`${run.automationName}: ${summary(run)}`),
        onError: (error) => {
          // A disconnected runner will never be given a run: it says what to do and stops.
          if (error instanceof TokenRefusedError) {
            revoked = error
            stop.abort()
            return
          }
          const trouble = `Asking for runs failed: ${error instanceof Error ? error.message : String(error)}`
          if (trouble !== lastTrouble) console.error(`${trouble} (asking again every ${every} s)`)
          lastTrouble = trouble
        },
      })
      if (revoked) throw revoked
      return 0
    }
    case 'allow':
    case 'disallow': {
      if (!argument) throw new Error(`${command} needs a folder.`)
      const config = await connected()
      const folder = await folderOf(argument)
      const others = (config.allowedFolders ?? []).filter((each) => each !== folder)
      await writeConfig(configPath(), { ...config, allowedFolders: command === 'allow' ? [...others, folder] : others })
      console.log(command === 'allow' ? `Desktop steps may now use ${folder}.` : `Desktop steps may no longer use ${folder}.`)
      return 0
    }
    case 'folders': {
      const folders = (await connected()).allowedFolders ?? []
      console.log(folders.length ? folders.join('\n') : 'No folder yet: desktop steps are refused until you `allow <folder>`.')
      return 0
    }
    case 'watch': {
      if (!argument || !values.automation) throw new Error('watch needs a folder and --automation <id>.')
      const chromiumPath = findChromium(values.chromium)
      if (!chromiumPath) throw new Error('Chromium or Chrome was not found: pass --chromium <path> or set CHROMIUM_PATH.')
      const config = await connected()
      const folder = await folderOf(argument)
      if (!(config.allowedFolders ?? []).includes(folder))
        throw new Error(`${folder} is not a folder this runner may use: \`allow\` it first.`)
      const api = clientOf(config)
      const automationId = values.automation
      const asked = inputNamesOf((await dataOf(api.GET('/automations/{id}', { params: { path: { id: automationId } } }))).steps)
      const stop = new AbortController()
      process.once('SIGINT', () => stop.abort())
      process.once('SIGTERM', () => stop.abort())
      console.log(`Watching ${folder}: each new file runs the automation (Ctrl+C stops).`)
      await watchFolder({
        folder,
        signal: stop.signal,
        onFile: async (file) => {
          const offered: Record<string, string> = { file, fileName: path.basename(file) }
          const inputs = Object.fromEntries(Object.entries(offered).filter(([name]) => asked.includes(name)))
          const run = await runAutomationLocally({
            api,
            automationId,
            inputs,
            chromiumPath,
            allowedFolders: config.allowedFolders,
            profile: profileOf(values.profile),
            device: deviceOf(config),
          }).catch((error: unknown) => {
            console.error(`${path.basename(file)}: ${error instanceof Error ? error.message : String(error)}`)
            return null
          })
          if (run) console.log(`${path.basename(file)}: ${summary(run)}`)
        },
      })
      return 0
    }
    case 'sign-in': {
      if (!argument || !values.profile) throw new Error('sign-in needs the address of the site and --profile <folder>.')
      if (!/^https?:\/\//i.test(argument) || !URL.canParse(argument))
        throw new Error(`${argument} is not an address: start it with https://.`)
      const chromiumPath = findChromium(values.chromium)
      if (!chromiumPath) throw new Error('Chromium or Chrome was not found: pass --chromium <path> or set CHROMIUM_PATH.')
      const profile = createBrowserProfile(values.profile)
      console.log(`Sign in in the window that opens, then close it: the session is kept in ${profile.file}.`)
      await signInWithProfile({ url: argument, chromiumPath, profile })
      console.log(`Kept. Runs with --profile ${values.profile} start with this session.`)
      return 0
    }
    case 'forget': {
      const config = await readConfig(configPath())
      if (!config) {
        console.log('This machine is not connected: there is nothing to forget.')
        return 0
      }
      // Revoked on the server first, so the device's slot is free at once; forgotten here whatever it answers.
      const told = await clientOf(config)
        .DELETE('/devices/me')
        .then(
          () => `Disconnected: “${config.device.name}” is revoked on ${config.server} and its slot is free.`,
          (error: unknown) =>
            error instanceof TokenRefusedError
              ? 'Forgotten: the server had disconnected this runner already.'
              : `Forgotten here, but the server was not told (${error instanceof Error ? error.message : String(error)}). Remove “${config.device.name}” in Settings -> Devices on the website to free its slot.`,
        )
      await rm(configPath(), { force: true })
      console.log(told)
      return 0
    }
    default:
      console.error(`Unknown command ${command}.\n\n${USAGE}`)
      return 1
  }
}
