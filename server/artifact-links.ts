import type { createUrlSigner } from './url-signer.ts'

/** What a signed link may name: one of the run's screenshots, or its extracted rows as JSON. */
export const EXTRACTED_JSON = 'extracted.json'

/**
 * Links to a run's artifacts that work without a session until they expire: webhook payloads
 * carry them (docs/decisions/026). The signature (url-signer.ts, purpose `run-artifact`) covers the
 * run, the file and the expiry, so a link names exactly one file for a fixed time. Shared by the
 * webhooks feature, which writes them, and the runs API, which serves them.
 */
export function createArtifactLinks(options: { signer: ReturnType<typeof createUrlSigner>; publicUrl: string }) {
  const { signer, publicUrl } = options
  const valueOf = (runId: string, file: string, expires: number) => `${runId}/${file}/${expires}`
  return {
    /** An absolute link that works until `expiresAt`. */
    link(runId: string, file: string, expiresAt: Date): string {
      const expires = Math.floor(expiresAt.getTime() / 1000)
      const signature = signer.sign('run-artifact', valueOf(runId, file, expires))
      const url = new URL(`/api/runs/${runId}/artifacts/${file}`, publicUrl)
      url.searchParams.set('expires', String(expires))
      url.searchParams.set('signature', signature)
      return url.toString()
    },
    /** Whether a link's signature is ours and it has not expired. */
    verify(runId: string, file: string, expires: number, signature: string, now = new Date()): boolean {
      if (!Number.isSafeInteger(expires) || expires * 1000 < now.getTime()) return false
      return signer.verify('run-artifact', valueOf(runId, file, expires), signature)
    },
  }
}

export type ArtifactLinks = ReturnType<typeof createArtifactLinks>
