import nodemailer from 'nodemailer'
import type { Db } from '#server/db/client.ts'
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
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null

  return {
    delivery: transport ? ('smtp' as const) : ('outbox' as const),

    async send(mail: Mail): Promise<void> {
      let status: 'logged' | 'sent' | 'failed' = 'logged'
      let error: string | null = null
      if (transport) {
        try {
          await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text })
          status = 'sent'
        } catch (cause) {
          status = 'failed'
          error = cause instanceof Error ? cause.message : String(cause)
          logger.error({ to: mail.to, subject: mail.subject, error }, 'mail delivery failed')
        }
      }
      await db.insert(mailOutbox).values({ ...mail, status, error })
      logger.info({ to: mail.to, subject: mail.subject, status }, transport ? 'mail sent' : `mail (outbox only):\n${mail.text}`)
    },
  }
}

export type Mailer = ReturnType<typeof createMailer>
