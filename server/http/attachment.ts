/**
 * Headers that serve bytes someone else made (a site's download, a member's upload) as a file to
 * save under `name`: never rendered on our origin, never sniffed, never cached by a proxy.
 */
export const attachmentHeaders = (name: string) => ({
  'Content-Type': 'application/octet-stream',
  'Content-Disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'private, no-store',
})
