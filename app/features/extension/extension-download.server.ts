import { statSync } from 'node:fs'
import path from 'node:path'

/** Where the build publishes the extension (scripts/publish-extension.js); the server serves build/client as is. */
export const EXTENSION_DOWNLOAD_PATH = '/downloads/aether-extension.zip'

/** The built extension this server offers for loading unpacked, or null when it was not built here. */
export function extensionDownload(): { href: string; sizeLabel: string } | null {
  try {
    const { size } = statSync(path.resolve('build/client', `.${EXTENSION_DOWNLOAD_PATH}`))
    return { href: EXTENSION_DOWNLOAD_PATH, sizeLabel: `${Math.max(1, Math.round(size / 1024))} KB` }
  } catch {
    return null
  }
}
