import { createAetherClient, type AetherClient } from '#sdk'

/**
 * An Aether server's address as the runner keeps it: its origin (the API is at /api of the site's
 * root, so a page's path is dropped). Anything else is refused saying what an address looks like.
 */
export function serverAddress(given: string): string {
  const text = given.trim()
  const example = 'e.g. https://aether.example.com'
  if (!/^https?:\/\//i.test(text)) throw new Error(`${given} is not a server address: start it with https:// or http:// (${example}).`)
  if (!URL.canParse(text)) throw new Error(`${given} is not a server address (${example}).`)
  return new URL(text).origin
}

/**
 * The runner's client of its Aether site (the SDK, sdk/README.md): the device's token, the
 * runner's version, and what a refused token means here.
 */
export function runnerClient(options: {
  server: string
  token?: string
  version?: string
  fetch?: (request: Request) => Promise<Response>
}): AetherClient {
  const server = serverAddress(options.server)
  return createAetherClient({
    server,
    token: options.token,
    clientVersion: options.version,
    fetch: options.fetch,
    tokenRefusedMessage: `This runner is no longer connected to ${server}: it was disconnected (on the website in Settings -> Devices, or by \`forget\`), or its member left the workspace. Connect it again: aether-runner pair --server ${server}`,
  })
}
