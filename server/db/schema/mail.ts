import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * Every e-mail the platform sends. Without SMTP it is the only delivery (development): the admin
 * can read it there. With SMTP it is the record of what was sent and whether it failed.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid().primaryKey().defaultRandom(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    status: text({ enum: ['logged', 'sent', 'failed'] }).notNull(),
    error: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.createdAt)],
)
