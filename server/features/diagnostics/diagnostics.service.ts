import { count, eq, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { profiles, workspaces } from '#server/db/schema/index.ts'
import { profileColumns } from '#server/db/profile-columns.ts'

export type Check<T> = { ok: true; value: T } | { ok: false; error: string }

export interface DiagnosticsReport {
  ranAt: string
  session: { userId: string; email: string }
  profile: Check<{ role: string; subscriptionPlan: string; credits: number; fullName: string | null }>
  profilesTable: Check<{ count: number }>
  backend: Check<{ kind: string; location: string; latencyMs: number; serverVersion: string }>
  errors: string[]
}

async function check<T>(run: () => Promise<T>): Promise<Check<T>> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * 'Billing Page Diagnostics' for admins: what the billing page depends on, checked live. It
 * never shows a secret: the database address comes without its password (client.ts redacts it).
 */
export function createDiagnosticsService(database: Pick<Database, 'db' | 'kind' | 'location'>) {
  const { db } = database
  return {
    async run(user: { id: string; email: string }): Promise<DiagnosticsReport> {
      const [profile, profilesTable, backend] = await Promise.all([
        check(async () => {
          const [row] = await db
            .select(profileColumns)
            .from(profiles)
            .innerJoin(workspaces, eq(workspaces.id, profiles.id))
            .where(eq(profiles.id, user.id))
          if (!row) throw new Error('No profile row for this user')
          return { role: row.role, subscriptionPlan: row.subscriptionPlan, credits: row.credits, fullName: row.fullName }
        }),
        check(async () => {
          const [row] = await db.select({ n: count() }).from(profiles)
          return { count: row?.n ?? 0 }
        }),
        check(async () => {
          const started = performance.now()
          const result = (await db.execute(sql`select version() as version`)) as unknown as { rows: { version: string }[] }
          return {
            kind: database.kind === 'pglite' ? 'PGlite (embedded PostgreSQL)' : 'PostgreSQL',
            location: database.location,
            latencyMs: Math.round((performance.now() - started) * 10) / 10,
            serverVersion: result.rows[0]?.version.split(' ').slice(0, 2).join(' ') ?? 'unknown',
          }
        }),
      ])
      const errors = [profile, profilesTable, backend].flatMap((result) => (result.ok ? [] : [result.error]))
      return { ranAt: new Date().toISOString(), session: { userId: user.id, email: user.email }, profile, profilesTable, backend, errors }
    },
  }
}
