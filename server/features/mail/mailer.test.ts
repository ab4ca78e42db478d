import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/client.ts'
import { openTestDatabase } from '#server/testing/test-database.ts'
import { createMailer, redactTokens } from './mailer.ts'

let database: Database
beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(async () => {
  await database.close()
})

const logger = pino({ level: 'silent' })
const mail = {
  to: 'someone@example.com',
  subject: 'Reset your Aether password',
  text: 'Here: http://localhost:3000/reset-password?token=abc123XYZ\n',
}

describe('mailer', () => {
  it('without SMTP the outbox is the delivery: the whole text is kept for the admin to read', async () => {
    const mailer = createMailer({ db: database.db, logger, from: 'Aether <no-reply@aether.test>' })
    await mailer.send(mail)
    const { items } = await mailer.list({ page: 1, limit: 10, to: mail.to })
    expect(items[0]).toMatchObject({ status: 'logged', text: mail.text })
  })

  it('with SMTP the stored copy has no usable link, and a failed delivery is recorded, not thrown', async () => {
    const mailer = createMailer({ db: database.db, logger, from: 'Aether <no-reply@aether.test>', smtpUrl: 'smtp://127.0.0.1:1' })
    await mailer.send({ ...mail, to: 'smtp-user@example.com' })
    const { items } = await mailer.list({ page: 1, limit: 10, to: 'smtp-user@example.com' })
    expect(items[0]?.status).toBe('failed')
    expect(items[0]?.error).toBeTruthy()
    expect(items[0]?.text).toBe('Here: http://localhost:3000/reset-password?token=[redacted]\n')
  })

  it('redacts every token parameter', () => {
    expect(redactTokens('a?token=1 b&token=2&x=3 c')).toBe('a?token=[redacted] b&token=[redacted]&x=3 c')
  })
})
