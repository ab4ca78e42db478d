import { eq } from 'drizzle-orm'
import { profileColumns } from '#server/db/profile-columns.ts'
import type { Db } from '#server/db/client.ts'
import { profiles, users, workspaces } from '#server/db/schema/index.ts'
import type { CreditService } from '#server/features/credits/credit.service.ts'
import type { SettingsService } from '#server/features/settings/settings.service.ts'
import type { WorkspaceService } from '#server/features/workspaces/workspace.service.ts'

/** The person, with the plan and balance of their personal workspace (the spec's profile fields). */
export type Profile = typeof profiles.$inferSelect & { subscriptionPlan: string; credits: number }

export function createProfileService(deps: {
  db: Db
  settings: SettingsService
  credits: CreditService
  workspaces: Pick<WorkspaceService, 'createPersonalIn'>
}) {
  const { db, settings, credits, workspaces: workspaceService } = deps

  async function get(userId: string): Promise<Profile | null> {
    const [row] = await db
      .select(profileColumns)
      .from(profiles)
      .innerJoin(workspaces, eq(workspaces.id, profiles.id))
      .where(eq(profiles.id, userId))
    return row ?? null
  }

  return {
    get,

    /**
     * Creates the profile a new account starts with, and its personal workspace: plan free and the
     * configured default credits, granted through the credit ledger. Does nothing when the profile exists.
     */
    async createFor(userId: string, fullName: string | null): Promise<Profile> {
      const { defaultCredits } = await settings.get()
      await db.transaction(async (tx) => {
        await workspaceService.createPersonalIn(tx, userId)
        const [created] = await tx
          .insert(profiles)
          .values({ id: userId, fullName: fullName || null })
          .onConflictDoNothing()
          .returning({ id: profiles.id })
        if (created && defaultCredits > 0) {
          await credits.applyIn(tx, {
            workspaceId: userId,
            delta: defaultCredits,
            reason: 'signup',
            reference: 'default credits for new accounts',
          })
        }
      })
      const profile = await get(userId)
      if (!profile) throw new Error(`profile for ${userId} could not be created`)
      return profile
    },

    async update(
      userId: string,
      changes: { fullName?: string; avatarUrl?: string | null; timeZone?: string | null; phone?: string | null },
    ): Promise<Profile | null> {
      const [row] = await db
        .update(profiles)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(profiles.id, userId))
        .returning({ id: profiles.id })
      if (changes.fullName !== undefined) {
        await db.update(users).set({ name: changes.fullName, updatedAt: new Date() }).where(eq(users.id, userId))
      }
      return row ? get(userId) : null
    },

    async setRole(userId: string, role: Profile['role']): Promise<void> {
      await db.update(profiles).set({ role, updatedAt: new Date() }).where(eq(profiles.id, userId))
    },
  }
}

export type ProfileService = ReturnType<typeof createProfileService>
