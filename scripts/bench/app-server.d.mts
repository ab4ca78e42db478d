// Types of app-server.mjs for the TypeScript benchmarks (bench-planner.ts).
import type { ChildProcess } from 'node:child_process'

export function ensureBuild(root: string, options?: { force?: boolean; skip?: boolean }): Promise<{ built: boolean; reason: string }>
interface ServerOptions {
  dataDir: string
  databaseUrl?: string | null
  accounts?: { admin: { email: string; password: string }; member: { email: string; password: string } } | null
  env?: Record<string, string>
  cpuProfileDir?: string | null
  port?: number | null
}
interface SpawnedServer {
  base: string
  port: number
  child: ChildProcess
  stop: () => Promise<void>
  spawnedAt: number
}
export function spawnServer(root: string, options: ServerOptions): Promise<SpawnedServer>
export function startServer(root: string, options: ServerOptions): Promise<SpawnedServer>
export function serveEnv(root: string): Record<string, string>
