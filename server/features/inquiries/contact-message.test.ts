import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ValidationError } from '#common/errors.ts'
import { HONEYPOT_FIELD } from '#common/inquiry-fields.ts'
import { mailOutbox, serviceInquiries } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

describe('contact page messages', () => {
  it("are stored as an inquiry of type 'other' with their subject, and the owner is e-mailed", async () => {
    const row = await t.services.inquiries.submitContactMessage(
      { name: 'Dana Scully', email: 'dana@example.com', subject: 'Partnership idea', message: 'Could we automate our weekly reports?' },
      { ip: '198.51.100.201' },
    )

    const [stored] = await t.db.select().from(serviceInquiries).where(eq(serviceInquiries.id, row.id))
    expect(stored).toMatchObject({
      name: 'Dana Scully',
      email: 'dana@example.com',
      projectType: 'other',
      subject: 'Partnership idea',
      message: 'Could we automate our weekly reports?',
      processed: false,
    })

    const [mail] = await t.db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(1)
    expect(mail).toMatchObject({ to: 'hello@aether.test', status: 'logged' })
    expect(mail?.subject).toContain('Dana Scully')
    expect(mail?.text).toContain('Subject: Partnership idea')
    expect(mail?.text).toContain('Could we automate our weekly reports?')
  })

  it('store no subject when none is given', async () => {
    const row = await t.services.inquiries.submitContactMessage(
      { name: 'Fox', email: 'fox@example.com', subject: '', message: 'Hello' },
      { ip: '198.51.100.202' },
    )
    const [stored] = await t.db.select().from(serviceInquiries).where(eq(serviceInquiries.id, row.id))
    expect(stored).toMatchObject({ projectType: 'other', subject: null })
  })

  it('are refused when the honeypot is filled, and nothing is stored or sent', async () => {
    const before = await t.db.select().from(serviceInquiries)
    const mailsBefore = await t.db.select().from(mailOutbox)
    await expect(
      t.services.inquiries.submitContactMessage(
        { name: 'Bot', email: 'bot@example.com', message: 'Buy now', [HONEYPOT_FIELD]: 'https://spam.example' },
        { ip: '198.51.100.203' },
      ),
    ).rejects.toBeInstanceOf(ValidationError)
    expect(await t.db.select().from(serviceInquiries)).toHaveLength(before.length)
    expect(await t.db.select().from(mailOutbox)).toHaveLength(mailsBefore.length)
  })
})
