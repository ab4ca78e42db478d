import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_AUTOMATION_FILE_BYTES, MAX_AUTOMATION_FILES } from '#common/file-steps.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// Files kept with an automation for its upload steps (docs/decisions/046): kept, listed, served
// only as attachments, replaced by name, removed, copied with the automation, within their limits.
// That a run's upload step chooses them: workflow-runs.test.ts.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Listed = { name: string; size: number; createdAt: string }[]

let t: TestApp
let member: Account
let other: Account

const filePath = (automationId: string, name: string) => `/api/automations/${automationId}/files/${encodeURIComponent(name)}`

async function keep(
  account: Account,
  automationId: string,
  name: string,
  body: string | Uint8Array<ArrayBuffer>,
  type = 'application/octet-stream',
) {
  const response = await t.app.request(filePath(automationId, name), {
    method: 'PUT',
    headers: { authorization: `Bearer ${account.token}`, 'content-type': type, 'x-forwarded-for': '203.0.113.10' },
    body,
  })
  return { status: response.status, body: (await response.json()) as { data?: Listed; message?: string; code?: string } }
}

async function listed(account: Account, automationId: string) {
  const response = await t.request(`/api/automations/${automationId}/files`, { token: account.token })
  return { status: response.status, body: (await response.json()) as { data?: Listed; message?: string } }
}

async function automationOf(account: Account): Promise<string> {
  const steps = [
    { type: 'navigate', url: 'https://example.com/apply' },
    { type: 'upload', target: [{ by: 'label', text: 'CV' }], file: 'cv.pdf' },
  ]
  const response = await t.request('/api/automations', { token: account.token, body: { name: 'Apply', steps } })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

beforeAll(async () => {
  t = await createTestApp()
  member = await t.signUp()
  other = await t.signUp()
})
afterAll(async () => {
  await t?.close()
})

describe('files kept with an automation', () => {
  it('are kept by name, listed without their bytes, and served only as attachments', async () => {
    const automationId = await automationOf(member)
    expect((await listed(member, automationId)).body.data).toEqual([])

    const kept = await keep(member, automationId, 'cv.pdf', '%PDF-1.4 my cv', 'application/pdf')
    expect(kept.status, kept.body.message).toBe(200)
    expect(kept.body.data).toEqual([{ name: 'cv.pdf', size: 14, createdAt: expect.any(String) }])

    // HTML someone keeps is never rendered on our origin.
    await keep(member, automationId, 'page.html', '<script>alert(1)</script>', 'text/html')
    const served = await t.request(filePath(automationId, 'page.html'), { token: member.token })
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('application/octet-stream')
    expect(served.headers.get('content-disposition')).toBe(`attachment; filename="page.html"; filename*=UTF-8''page.html`)
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await served.text()).toBe('<script>alert(1)</script>')

    const replaced = await keep(member, automationId, 'cv.pdf', '%PDF-1.4 my newer cv')
    expect(replaced.body.data?.map(({ name, size }) => ({ name, size }))).toEqual([
      { name: 'cv.pdf', size: 20 },
      { name: 'page.html', size: 25 },
    ])
    expect(await (await t.request(filePath(automationId, 'cv.pdf'), { token: member.token })).text()).toBe('%PDF-1.4 my newer cv')
  })

  it('are removed one by one, and a missing one is a 404', async () => {
    const automationId = await automationOf(member)
    await keep(member, automationId, 'a.txt', 'a')
    await keep(member, automationId, 'b.txt', 'b')
    const removed = await t.request(filePath(automationId, 'a.txt'), { method: 'DELETE', token: member.token })
    expect(removed.status).toBe(200)
    expect(((await removed.json()) as { data: Listed }).data.map((file) => file.name)).toEqual(['b.txt'])
    const again = await t.request(filePath(automationId, 'a.txt'), { method: 'DELETE', token: member.token })
    expect(again.status).toBe(404)
    expect(await again.json()).toMatchObject({ message: 'No such file' })
    expect((await t.request(filePath(automationId, 'a.txt'), { token: member.token })).status).toBe(404)
  })

  it('refuse names with folders or quotes, empty files, files over the size limit and files past the count limit', async () => {
    const automationId = await automationOf(member)
    for (const name of ['../secret.txt', 'folder/file.txt', 'folder\\file.txt', 'say "hi".txt']) {
      const refused = await keep(member, automationId, name, 'x')
      expect(refused.status, name).toBe(400)
      expect(refused.body.message, name).toMatch(/must be a file name, without folders or quotes/)
    }
    const longName = await keep(member, automationId, `${'n'.repeat(101)}`, 'x')
    expect(longName.body.message).toMatch(/at most 100 characters/)

    const empty = await keep(member, automationId, 'empty.txt', '')
    expect(empty.status).toBe(400)
    expect(empty.body.message).toMatch(/The file is empty/)

    const large = await keep(member, automationId, 'large.bin', new Uint8Array(MAX_AUTOMATION_FILE_BYTES + 1))
    expect(large.status).toBe(413)
    expect(large.body).toMatchObject({ message: 'The file is larger than 5 MB.', code: 'PAYLOAD_TOO_LARGE' })
    expect((await keep(member, automationId, 'at-limit.bin', new Uint8Array(MAX_AUTOMATION_FILE_BYTES))).status).toBe(200)

    for (let index = 2; index <= MAX_AUTOMATION_FILES; index += 1) {
      expect((await keep(member, automationId, `file-${index}.txt`, `${index}`)).status).toBe(200)
    }
    const oneMore = await keep(member, automationId, 'one-more.txt', 'x')
    expect(oneMore.status).toBe(400)
    expect(oneMore.body.message).toBe(`An automation keeps at most ${MAX_AUTOMATION_FILES} files: remove one first.`)
    // Replacing one of them is not one more.
    expect((await keep(member, automationId, 'file-2.txt', 'two')).status).toBe(200)
    expect((await listed(member, automationId)).body.data).toHaveLength(MAX_AUTOMATION_FILES)
  })

  it("are another workspace's secret, go with their automation, and come with its copy", async () => {
    const automationId = await automationOf(member)
    await keep(member, automationId, 'cv.pdf', '%PDF-1.4 mine')
    expect((await listed(other, automationId)).status).toBe(404)
    expect((await t.request(filePath(automationId, 'cv.pdf'), { token: other.token })).status).toBe(404)
    expect((await keep(other, automationId, 'cv.pdf', 'theirs')).status).toBe(404)
    expect((await t.request(filePath(automationId, 'cv.pdf'), { method: 'DELETE', token: other.token })).status).toBe(404)

    const copy = await t.request(`/api/automations/${automationId}/duplicate`, { method: 'POST', token: member.token })
    const copyId = ((await copy.json()) as { data: { id: string } }).data.id
    expect(await (await t.request(filePath(copyId, 'cv.pdf'), { token: member.token })).text()).toBe('%PDF-1.4 mine')

    expect((await t.request(`/api/automations/${automationId}`, { method: 'DELETE', token: member.token })).status).toBe(200)
    expect((await listed(member, automationId)).status).toBe(404)
    expect((await listed(member, copyId)).body.data?.map((file) => file.name)).toEqual(['cv.pdf'])
  })
})
