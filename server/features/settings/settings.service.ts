import { eq } from 'drizzle-orm'
import type { AppSettings } from '#common/settings.ts'
import type { Db } from '#server/db/client.ts'
import { appSettings } from '#server/db/schema/index.ts'
import type { Actor, AuditService } from '#server/features/audit/audit.service.ts'

const SINGLE_ROW_ID = 1
/** Settings are read on every API request; a short cache keeps that off the database. */
const CACHE_MS = 2_000

export function createSettingsService(db: Db, audit: AuditService) {
  let cached: { value: AppSettings; at: number } | null = null
  /** Counts saves: a read that began before a save must not put its older value in the cache. */
  let saves = 0

  async function read(): Promise<AppSettings> {
    const [row] = await db.select().from(appSettings).where(eq(appSettings.id, SINGLE_ROW_ID))
    const settings = row ?? (await ensureRow())
    return {
      siteName: settings.siteName,
      description: settings.description,
      defaultCredits: settings.defaultCredits,
      maintenanceMode: settings.maintenanceMode,
      theme: settings.theme,
      apiRateLimit: settings.apiRateLimit,
    }
  }

  /** The settings when this process read them less than 2 s ago (no query); null otherwise. */
  function cachedNow(): AppSettings | null {
    return cached && Date.now() - cached.at < CACHE_MS ? cached.value : null
  }

  async function readAndCache(): Promise<AppSettings> {
    const savesBefore = saves
    const startedAt = Date.now()
    const value = await read()
    if (saves === savesBefore) cached = { value, at: startedAt }
    return value
  }

  async function ensureRow() {
    await db.insert(appSettings).values({ id: SINGLE_ROW_ID }).onConflictDoNothing()
    const [row] = await db.select().from(appSettings).where(eq(appSettings.id, SINGLE_ROW_ID))
    if (!row) throw new Error('app_settings row could not be created')
    return row
  }

  return {
    ensureRow,

    async get(): Promise<AppSettings> {
      return cachedNow() ?? readAndCache()
    },

    cachedNow,

    /** Saves System Settings; an admin's save is audited (setup code passes no actor). */
    async update(input: AppSettings, actor?: Actor): Promise<AppSettings> {
      const before = await read()
      await db.transaction(async (tx) => {
        await tx
          .update(appSettings)
          .set({ ...input, updatedAt: new Date() })
          .where(eq(appSettings.id, SINGLE_ROW_ID))
        const changed = (Object.keys(input) as (keyof AppSettings)[]).filter((key) => input[key] !== before[key])
        if (actor && changed.length) {
          await audit.record(tx, actor, {
            action: 'settings.update',
            targetType: 'settings',
            summary: `Changed System Settings: ${changed.join(', ')}`,
            before: Object.fromEntries(changed.map((key) => [key, before[key]])),
            after: Object.fromEntries(changed.map((key) => [key, input[key]])),
          })
        }
      })
      saves++
      cached = null
      return read()
    },
  }
}

export type SettingsService = ReturnType<typeof createSettingsService>
