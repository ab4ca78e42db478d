import { and, count, eq, ilike, or, type SQL } from 'drizzle-orm'
import type { ContactMessageInput, InquiryInput } from '#common/inquiries.ts'
import { HONEYPOT_FIELD, PROJECT_TYPE_LABELS } from '#common/inquiry-fields.ts'
import type { Page, PaginationQuery } from '#common/pagination.ts'
import { NotFound, ValidationError } from '#common/errors.ts'
import { isUuid } from '#common/ids.ts'
import type { Db } from '#server/db/client.ts'
import { newestFirstPage } from '#server/db/newest-first-page.ts'
import { containsPattern } from '#server/db/like-pattern.ts'
import type { Actor, AuditService } from '#server/features/audit/audit.service.ts'
import type { EventBus } from '#server/features/events/event-bus.ts'
import { serviceInquiries } from '#server/db/schema/index.ts'
import type { Mailer } from '#server/features/mail/mailer.ts'
import type { RateLimitRule, RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'

export type Inquiry = typeof serviceInquiries.$inferSelect

const INQUIRIES_PER_IP: RateLimitRule = {
  limit: 5,
  windowSeconds: 10 * 60,
  message: 'You have sent several messages in a short time. Please wait 10 minutes before sending another.',
}

export interface InquiryListQuery extends PaginationQuery {
  processed?: boolean
  search?: string
}

export function createInquiryService(deps: {
  db: Db
  mailer: Mailer
  rateLimits: RateLimitService
  ownerEmail: string
  publicUrl: string
  audit: AuditService
  events: EventBus
}) {
  const { db, mailer, rateLimits, ownerEmail, publicUrl, audit, events } = deps

  async function store(values: typeof serviceInquiries.$inferInsert, honeypot: string | undefined, ip: string): Promise<Inquiry> {
    // A filled honeypot is a bot: refuse before counting or storing anything.
    if (honeypot)
      throw new ValidationError("Your inquiry couldn't be sent. Please try again later.", [
        { path: HONEYPOT_FIELD, message: 'must be empty' },
      ])
    await rateLimits.consume(`inquiry:ip:${ip}`, INQUIRIES_PER_IP)
    const [row] = await db.insert(serviceInquiries).values(values).returning()
    if (!row) throw new Error('inquiry insert returned nothing')
    events.publish('inquiry', { type: 'created', id: row.id, name: row.name })
    await mailer.send({
      to: ownerEmail,
      subject: `New ${PROJECT_TYPE_LABELS[row.projectType]} inquiry from ${row.name}`,
      text: [
        `Name: ${row.name}`,
        `Email: ${row.email}`,
        `Project type: ${PROJECT_TYPE_LABELS[row.projectType]}`,
        row.subject ? `Subject: ${row.subject}` : null,
        '',
        row.message,
        '',
        `Inbox: ${publicUrl}/admin/inquiries`,
      ]
        .filter((line) => line !== null)
        .join('\n'),
    })
    return row
  }

  return {
    submit(input: InquiryInput, client: { ip: string }) {
      return store(
        { name: input.name, email: input.email, projectType: input.projectType, message: input.message },
        input[HONEYPOT_FIELD],
        client.ip,
      )
    },

    submitContactMessage(input: ContactMessageInput, client: { ip: string }) {
      return store(
        { name: input.name, email: input.email, projectType: 'other', subject: input.subject || null, message: input.message },
        input[HONEYPOT_FIELD],
        client.ip,
      )
    },

    async list(query: InquiryListQuery): Promise<Page<Inquiry>> {
      const conditions: SQL[] = []
      if (query.processed !== undefined) conditions.push(eq(serviceInquiries.processed, query.processed))
      if (query.search) {
        const pattern = containsPattern(query.search)
        const match = or(
          ilike(serviceInquiries.name, pattern),
          ilike(serviceInquiries.email, pattern),
          ilike(serviceInquiries.message, pattern),
        )
        if (match) conditions.push(match)
      }
      const where = conditions.length ? and(...conditions) : undefined
      return newestFirstPage(db, serviceInquiries, where, query)
    },

    async unprocessedCount(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(serviceInquiries).where(eq(serviceInquiries.processed, false))
      return row?.n ?? 0
    },

    async setProcessed(actor: Actor, id: string, processed: boolean): Promise<Inquiry> {
      // An id that is no UUID (a page's form sends what it is given) is as unknown as a missing one.
      if (!isUuid(id)) throw new NotFound('Inquiry not found')
      const row = await db.transaction(async (tx) => {
        // Locked, so the audited "before" is the value this change replaced, even if another admin toggled it.
        const [current] = await tx
          .select({ processed: serviceInquiries.processed })
          .from(serviceInquiries)
          .where(eq(serviceInquiries.id, id))
          .for('update')
        if (!current) throw new NotFound('Inquiry not found')
        const [updated] = await tx.update(serviceInquiries).set({ processed }).where(eq(serviceInquiries.id, id)).returning()
        if (!updated) throw new NotFound('Inquiry not found')
        await audit.record(tx, actor, {
          action: 'inquiry.update',
          targetType: 'inquiry',
          targetId: id,
          summary: `Marked the inquiry from ${updated.name} as ${processed ? 'processed' : 'unprocessed'}`,
          before: { processed: current.processed },
          after: { processed },
        })
        return updated
      })
      events.publish('inquiry', { type: 'updated', id })
      return row
    },

    async remove(actor: Actor, id: string): Promise<void> {
      if (!isUuid(id)) throw new NotFound('Inquiry not found')
      await db.transaction(async (tx) => {
        const [deleted] = await tx.delete(serviceInquiries).where(eq(serviceInquiries.id, id)).returning()
        if (!deleted) throw new NotFound('Inquiry not found')
        await audit.record(tx, actor, {
          action: 'inquiry.delete',
          targetType: 'inquiry',
          targetId: id,
          summary: `Deleted the inquiry from ${deleted.name} <${deleted.email}>`,
          before: { name: deleted.name, email: deleted.email, projectType: deleted.projectType, processed: deleted.processed },
        })
      })
      events.publish('inquiry', { type: 'deleted', id })
    },
  }
}

export type InquiryService = ReturnType<typeof createInquiryService>
