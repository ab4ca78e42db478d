import { getTableColumns } from 'drizzle-orm'
import { profiles, workspaces } from './schema/index.ts'

/**
 * A profile's columns with its personal workspace's plan and balance (the spec's profile fields;
 * docs/decisions/021): select them from `profiles` joined with `workspaces` on the profile's id.
 */
export const profileColumns = { ...getTableColumns(profiles), subscriptionPlan: workspaces.planSlug, credits: workspaces.credits }
