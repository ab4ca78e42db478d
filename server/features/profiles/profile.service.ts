import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { profiles, users } from '#server/db/schema/index.ts'
import type { CreditService } from '#server/features/credits/credit.service.ts'
import type { SettingsService } from '#server/features/settings/settings.service.ts'

export type Profile = typeof profiles.$inferSelect

export function createProfileService(db: Db, settings: SettingsService, credits: CreditService) {
  async function get(userId: string): Promise<Profile | null> {
    const [row] = await db.select().from(profiles).where(eq(profiles.id, userId))
    return row ?? null
  }

  return {
    get,

    /**
     * Creates the profile a new account starts with: plan free and the configured default credits,
     * granted through the credit ledger. Does nothing when the profile exists.
     */
    async createFor(userId: string, fullName: string | null): Promise<Profile> {
      const { defaultCredits } = await settings.get()
      await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(profiles)
          .values({ id: userId, fullName: fullName || null, credits: 0 })
          .onConflictDoNothing()
          .returning({ id: profiles.id })
        if (created && defaultCredits > 0) {
          await credits.applyIn(tx, { userId, delta: defaultCredits, reason: 'signup', reference: 'default credits for new accounts' })
        }
      })
      const profile = await get(userId)
      if (!profile) throw new Error(`profile for ${userId} could not be created`)
      return profile
    },

    async update(userId: string, changes: { fullName?: string; avatarUrl?: string | null }): Promise<Profile | null> {
      const [row] = await db
        .update(profiles)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(profiles.id, userId))
        .returning()
      if (changes.fullName !== undefined) {
        await db.update(users).set({ name: changes.fullName, updatedAt: new Date() }).where(eq(users.id, userId))
      }
      return row ?? null
    },

    async setRole(userId: string, role: Profile['role']): Promise<void> {
      await db.update(profiles).set({ role, updatedAt: new Date() }).where(eq(profiles.id, userId))
    },
  }
}

export type ProfileService = ReturnType<typeof createProfileService>
