import { eq } from 'drizzle-orm'
import type { AppSettings } from '#common/settings.ts'
import type { Db } from '#server/db/client.ts'
import { appSettings } from '#server/db/schema/index.ts'

const SINGLE_ROW_ID = 1
/** Settings are read on every API request; a short cache keeps that off the database. */
const CACHE_MS = 2_000

export function createSettingsService(db: Db) {
  let cached: { value: AppSettings; at: number } | null = null

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

  async function ensureRow() {
    await db.insert(appSettings).values({ id: SINGLE_ROW_ID }).onConflictDoNothing()
    const [row] = await db.select().from(appSettings).where(eq(appSettings.id, SINGLE_ROW_ID))
    if (!row) throw new Error('app_settings row could not be created')
    return row
  }

  return {
    ensureRow,

    async get(): Promise<AppSettings> {
      if (cached && Date.now() - cached.at < CACHE_MS) return cached.value
      const value = await read()
      cached = { value, at: Date.now() }
      return value
    },

    async update(input: AppSettings): Promise<AppSettings> {
      await ensureRow()
      await db
        .update(appSettings)
        .set({ ...input, updatedAt: new Date() })
        .where(eq(appSettings.id, SINGLE_ROW_ID))
      cached = null
      return read()
    },
  }
}

export type SettingsService = ReturnType<typeof createSettingsService>
