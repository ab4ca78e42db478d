import { randomUUID } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { COVER_MAX_BYTES, COVER_UPLOAD_PATH } from '#common/blog.ts'
import { NotFound, ValidationError } from '#common/errors.ts'

const KINDS = [
  {
    type: 'image/png',
    ext: 'png',
    matches: (bytes: Uint8Array) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => bytes[i] === byte),
  },
  { type: 'image/jpeg', ext: 'jpg', matches: (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff },
  {
    type: 'image/webp',
    ext: 'webp',
    matches: (bytes: Uint8Array) => ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP',
  },
] as const

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))
/** Names we hand out: a UUID and a known extension, so a request can never point elsewhere. */
const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|webp)$/

/**
 * Cover images on local disk (DATA_DIR/uploads/covers). The type is read from the file's own
 * first bytes, not from its name or the browser's claim; the name is ours.
 */
export function createUploadService(options: { dataDir: string }) {
  const folder = path.resolve(options.dataDir, 'uploads', 'covers')

  return {
    async saveCover(file: { arrayBuffer(): Promise<ArrayBuffer>; size: number }): Promise<string> {
      if (file.size === 0) throw new ValidationError('file: The file is empty.', [{ path: 'file', message: 'The file is empty.' }])
      if (file.size > COVER_MAX_BYTES) {
        throw new ValidationError('file: The image is larger than 2 MB.', [{ path: 'file', message: 'The image is larger than 2 MB.' }])
      }
      const bytes = new Uint8Array(await file.arrayBuffer())
      const kind = KINDS.find((candidate) => candidate.matches(bytes))
      if (!kind) {
        throw new ValidationError('file: Covers must be PNG, JPEG or WebP images.', [
          { path: 'file', message: 'Covers must be PNG, JPEG or WebP images.' },
        ])
      }
      const name = `${randomUUID()}.${kind.ext}`
      await mkdir(folder, { recursive: true })
      await writeFile(path.join(folder, name), bytes, { flag: 'wx' })
      return `${COVER_UPLOAD_PATH}${name}`
    },

    async readCover(name: string): Promise<{ bytes: Buffer; type: string }> {
      if (!STORED_NAME.test(name)) throw new NotFound('No such image')
      const kind = KINDS.find((candidate) => name.endsWith(`.${candidate.ext}`))
      try {
        return { bytes: await readFile(path.join(folder, name)), type: kind?.type ?? 'application/octet-stream' }
      } catch {
        throw new NotFound('No such image')
      }
    },
  }
}

export type UploadService = ReturnType<typeof createUploadService>
