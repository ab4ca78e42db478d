import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Logger } from '#server/logger.ts'
import type { Services } from '#server/services.ts'
import type { Db } from './client.ts'
import { appSettings, automationTemplates, blogPosts, serviceInquiries, subscriptionPlans, users } from './schema/index.ts'
import { DEFAULT_PLANS, DEMO_INQUIRIES, demoPosts } from './seed-content.ts'
import { SEED_TEMPLATES } from './seed-templates.ts'

export interface SeedOptions {
  demo: boolean
  adminEmail: string
  adminPassword?: string
  memberEmail: string
  memberPassword?: string
}

/**
 * Idempotent. Reference data (settings row, the three plans, the gallery's templates) is written
 * whenever it is missing; demo accounts and content only into a database that has no users yet.
 */
export async function seed(db: Db, services: Services, logger: Logger, options: SeedOptions): Promise<void> {
  const present = await whatIsThere(db)
  if (!present.settings) await services.settings.ensureRow()
  if (!present.plans) {
    await db.insert(subscriptionPlans).values(DEFAULT_PLANS).onConflictDoNothing()
    logger.info('seed: created the Free, Pro and Business plans')
  }
  // Into an empty gallery only, as the plans: an admin's deletions and edits are never undone.
  if (!present.templates) {
    await db.insert(automationTemplates).values(SEED_TEMPLATES).onConflictDoNothing()
    logger.info(`seed: published ${SEED_TEMPLATES.length} automation templates`)
  }

  if (!options.demo || present.users) return

  const admin = await createAccount(services, options.adminEmail, options.adminPassword, 'Alex Morgan')
  await services.profiles.setRole(admin.id, 'admin')
  const member = await createAccount(services, options.memberEmail, options.memberPassword, 'Demo Member')

  const now = new Date()
  await db
    .insert(blogPosts)
    .values(demoPosts(now).map((post) => ({ ...post, authorId: admin.id })))
    .onConflictDoNothing()
  await db.insert(serviceInquiries).values(DEMO_INQUIRIES)

  logger.info('seed: demo content created (4 blog posts, 3 service inquiries)')
  announce(logger, 'admin', options.adminEmail, admin.generatedPassword)
  announce(logger, 'member', options.memberEmail, member.generatedPassword)
}

/** Which of the seeded kinds of rows the database has, in one query: a restart usually finds them all (issue 18, cold start). */
async function whatIsThere(db: Db): Promise<{ settings: boolean; plans: boolean; templates: boolean; users: boolean }> {
  const result = (await db.execute(sql`
    select exists (select 1 from ${appSettings}) as settings,
      exists (select 1 from ${subscriptionPlans}) as plans,
      exists (select 1 from ${automationTemplates}) as templates,
      exists (select 1 from ${users}) as users
  `)) as unknown as { rows: { settings: boolean; plans: boolean; templates: boolean; users: boolean }[] }
  const row = result.rows[0]
  if (!row) throw new Error('the seed check returned no row')
  return row
}

async function createAccount(services: Services, email: string, password: string | undefined, name: string) {
  const generatedPassword = password ? undefined : randomBytes(12).toString('base64url')
  // Demo accounts need no e-mail round trip: made verified, they are sent no verification mail.
  const { id } = await services.auth.createVerified({ email, password: password ?? generatedPassword ?? '', fullName: name })
  return { id, generatedPassword }
}

function announce(logger: Logger, role: string, email: string, generatedPassword: string | undefined) {
  if (generatedPassword) {
    logger.warn(`Demo ${role} login: ${email} / ${generatedPassword} (generated; shown only this once)`)
  } else {
    logger.info(`Demo ${role} login: ${email} with the password from SEED_${role.toUpperCase()}_PASSWORD`)
  }
}
