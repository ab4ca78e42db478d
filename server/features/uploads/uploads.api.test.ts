import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { deflateSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

type Account = Awaited<ReturnType<TestApp['signUp']>>
type ErrorBody = { message: string; code?: string; issues?: { path: string; message: string }[] }

const PNG_SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const MB = 1024 * 1024

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Uint8Array): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typed))
  return Buffer.concat([length, typed, crc])
}

/** A valid 1x1 red PNG: signature, IHDR, IDAT (zlib), IEND. */
function tinyPng(): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(1, 0) // width
  header.writeUInt32BE(1, 4) // height
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, default compression, filter and interlace
  const scanline = Uint8Array.from([0, 0xff, 0, 0]) // filter byte, then one RGB pixel
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(scanline)), chunk('IEND', new Uint8Array())])
}

/** `size` bytes that start like a PNG (the service only reads the first bytes). */
function pngOfSize(size: number): Buffer {
  const bytes = Buffer.alloc(size)
  bytes.set(PNG_SIGNATURE)
  return bytes
}

let t: TestApp
let admin: Account
let member: Account
let coversDir: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
  member = await t.signUp()
  coversDir = path.join(t.dataDir, 'uploads', 'covers')
})
afterAll(async () => {
  await t.close()
})

function upload(file: { bytes: Uint8Array; name: string; type?: string } | null, token?: string) {
  const form = new FormData()
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/png' }), file.name)
  const headers = new Headers({ 'x-forwarded-for': '203.0.113.10' })
  if (token) headers.set('authorization', `Bearer ${token}`)
  return t.app.request('/api/uploads/covers', { method: 'POST', body: form, headers })
}

const storedFiles = () => (existsSync(coversDir) ? readdirSync(coversDir) : [])

async function expectFileError(response: Response, message: string) {
  expect(response.status).toBe(400)
  const body = (await response.json()) as ErrorBody
  expect(body.message).toBe(`file: ${message}`)
  expect(body.issues).toEqual([{ path: 'file', message }])
}

describe('POST /api/uploads/covers', () => {
  it('stores a PNG under a new name and answers its URL (201)', async () => {
    const png = tinyPng()
    const response = await upload({ bytes: png, name: 'my cover.png' }, admin.token)
    expect(response.status).toBe(201)
    const { data } = (await response.json()) as { data: { url: string } }
    expect(data.url).toMatch(/^\/uploads\/covers\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.png$/)

    const name = data.url.slice('/uploads/covers/'.length)
    const stored = path.join(coversDir, name)
    expect(existsSync(stored)).toBe(true)
    expect(readFileSync(stored).equals(png)).toBe(true)

    // A post may use the URL as its cover.
    const post = await t.request('/api/blog', { token: admin.token, body: { title: 'Covered', coverImageUrl: data.url } })
    expect(post.status).toBe(201)
    expect(((await post.json()) as { data: { coverImageUrl: string } }).data.coverImageUrl).toBe(data.url)
  })

  it('names the file by its content, not by the name or type the browser claims', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64)])
    const response = await upload({ bytes: jpeg, name: 'photo.png', type: 'image/png' }, admin.token)
    expect(response.status).toBe(201)
    expect(((await response.json()) as { data: { url: string } }).data.url).toMatch(/\.jpg$/)
  })

  it('accepts an image above the 1 MB JSON limit', async () => {
    const response = await upload({ bytes: pngOfSize(1.5 * MB), name: 'big.png' }, admin.token)
    expect(response.status).toBe(201)
  })

  it('refuses a text file renamed .png, an empty file and a missing file (400) and stores nothing', async () => {
    const before = storedFiles().length
    await expectFileError(
      await upload({ bytes: Buffer.from('just some text, honestly'), name: 'notes.png', type: 'image/png' }, admin.token),
      'Covers must be PNG, JPEG or WebP images.',
    )
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    await expectFileError(await upload({ bytes: svg, name: 'cover.png' }, admin.token), 'Covers must be PNG, JPEG or WebP images.')
    await expectFileError(await upload({ bytes: new Uint8Array(), name: 'empty.png' }, admin.token), 'The file is empty.')
    await expectFileError(await upload(null, admin.token), 'Choose an image to upload.')
    expect(storedFiles()).toHaveLength(before)
  })

  it('refuses an image over 2 MB (400 just above it, 413 well above it)', async () => {
    const before = storedFiles().length
    await expectFileError(await upload({ bytes: pngOfSize(2 * MB + 1), name: 'edge.png' }, admin.token), 'The image is larger than 2 MB.')
    const huge = await upload({ bytes: pngOfSize(3 * MB), name: 'huge.png' }, admin.token)
    expect(huge.status).toBe(413)
    expect(((await huge.json()) as ErrorBody).message).toBe('The image is larger than 2 MB.')
    expect(storedFiles()).toHaveLength(before)
  })

  it('is refused to members (403) and visitors (401)', async () => {
    const before = storedFiles().length
    expect((await upload({ bytes: tinyPng(), name: 'x.png' }, member.token)).status).toBe(403)
    expect((await upload({ bytes: tinyPng(), name: 'x.png' })).status).toBe(401)
    expect(storedFiles()).toHaveLength(before)
  })
})

describe('readCover', () => {
  it('reads back an uploaded cover with its type', async () => {
    const png = tinyPng()
    const response = await upload({ bytes: png, name: 'again.png' }, admin.token)
    const { data } = (await response.json()) as { data: { url: string } }
    const cover = await t.services.uploads.readCover(data.url.slice('/uploads/covers/'.length))
    expect(cover.type).toBe('image/png')
    expect(cover.bytes.equals(png)).toBe(true)
  })

  it('answers NotFound for names it did not hand out, even when such a file exists elsewhere', async () => {
    // Files a path trick could reach.
    mkdirSync(coversDir, { recursive: true })
    writeFileSync(path.join(t.dataDir, 'uploads', 'x.png'), tinyPng())
    writeFileSync(path.join(coversDir, 'abc.png'), tinyPng())
    const [stored] = storedFiles().filter((name) => name.endsWith('.png') && name !== 'abc.png')
    if (!stored) throw new Error('no stored cover')

    for (const name of [
      '../x.png',
      'abc.png',
      '..%2Fx.png',
      `../covers/${stored}`,
      `${stored}/../../x.png`,
      stored.toUpperCase(),
      stored.replace('.png', '.svg'),
      '',
    ]) {
      await expect(t.services.uploads.readCover(name), name).rejects.toMatchObject({ status: 404, message: 'No such image' })
    }
    await expect(t.services.uploads.readCover('0b6f0c2e-1111-4222-8333-444455556666.png')).rejects.toMatchObject({ status: 404 })
  })
})
