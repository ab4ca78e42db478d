import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import path from 'node:path'

/** What pairing left behind: where the server is and the device's credential. */
export interface RunnerConfig {
  server: string
  token: string
  device: { id: string; name: string }
  workspace: { id: string; name: string }
  /** The private key vault values are sealed to (docs/decisions/048); absent in a config paired before keys. */
  privateKey?: JsonWebKey
  /** The folders desktop steps may read and change (docs/decisions/046): `allow <folder>`. */
  allowedFolders?: string[]
}

/** AETHER_RUNNER_CONFIG, else ~/.config/aether-runner/config.json. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.AETHER_RUNNER_CONFIG || path.join(env.XDG_CONFIG_HOME || path.join(homedir(), '.config'), 'aether-runner', 'config.json')
}

export async function readConfig(file: string): Promise<RunnerConfig | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as RunnerConfig
  } catch {
    return null
  }
}

/** Only the member may read it: it holds the device's credential. */
export async function writeConfig(file: string, config: RunnerConfig): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
}
