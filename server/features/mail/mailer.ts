import { and, eq, gte } from 'drizzle-orm'
import type { Transporter } from 'nodemailer'
import type { Page } from '#common/pagination.ts'
import type { Db } from '#server/db/client.ts'
import { newestFirstPage } from '#server/db/newest-first-page.ts'
import { mailOutbox } from '#server/db/schema/index.ts'
import type { Logger } from '#server/logger.ts'

export interface Mail {
  to: string
  subject: string
  text: string
}

/**
 * Sends through SMTP when SMTP_URL is set; either way each message is logged and kept in the
 * mail_outbox table, so development has a readable outbox and production a delivery record.
 * A failed delivery is recorded, never thrown: the action that sent it has already succeeded.
 */
export function createMailer(options: { db: Db; logger: Logger; smtpUrl?: string; from: string }) {
  const { db, logger, smtpUrl, from } = options
  // nodemailer is loaded with the first message (issue 18, cold start: a start does not need it).
  let transport: Promise<Transporter> | null = null
  const smtp = smtpUrl
    ? () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl)))
    : null

  return {
    delivery: smtp ? ('smtp' as const) : ('outbox' as const),

    async send(mail: Mail): Promise<void> {
      let status: 'logged' | 'sent' | 'failed' = 'logged'
      let error: string | null = null
      if (smtp) {
        try {
          await (await smtp()).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text })
          status = 'sent'
        } catch (cause) {
          status = 'failed'
          error = cause instanceof Error ? cause.message : String(cause)
          logger.error({ to: mail.to, subject: mail.subject, error }, 'mail delivery failed')
        }
      }
      // With SMTP the outbox is a delivery record: one-time links are kept out of it (and the log).
      const kept = smtp ? { ...mail, text: redactTokens(mail.text) } : mail
      // The row's time is this process's clock, as `failedSince` compares with it.
      await db.insert(mailOutbox).values({ ...kept, status, error, createdAt: new Date() })
      logger.info({ to: mail.to, subject: mail.subject, status }, smtp ? 'mail sent' : `mail (outbox only):\n${mail.text}`)
    },

    /** Whether a message to this address failed to go out since then (the delivery record says). */
    async failedSince(to: string, since: Date): Promise<boolean> {
      const [failed] = await db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, to), eq(mailOutbox.status, 'failed'), gte(mailOutbox.createdAt, since)))
        .limit(1)
      return failed !== undefined
    },

    /** The outbox, newest first (the admin reads development mail here). */
    async list(query: { page: number; limit: number; to?: string }): Promise<Page<OutboxMail>> {
      const where = query.to ? eq(mailOutbox.to, query.to) : undefined
      return newestFirstPage(db, mailOutbox, where, query)
    },
  }
}

/** Replaces the token of every link (`?token=…`) so a stored copy cannot be followed. */
export function redactTokens(text: string): string {
  return text.replace(/([?&]token=)[^\s&]+/g, '$1[redacted]')
}

export type OutboxMail = typeof mailOutbox.$inferSelect
export type Mailer = ReturnType<typeof createMailer>
