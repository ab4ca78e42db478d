/** An answer of the Aether API that is not a success: its status, code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message)
  }
}

/**
 * The server refused the device's token (401): it was disconnected on the website, disconnected
 * itself, or its member left the workspace. Nothing this runner sends will work until it pairs again.
 */
export class DeviceRevokedError extends ApiError {}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>

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

/** Why fetch failed, in the words of the network error under it (ECONNREFUSED, ENOTFOUND, a certificate…). */
function networkReason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
}

/**
 * The local runner's view of the Aether API (README "API"): the server's address and the device's
 * bearer token. Every call answers the response's `data`, or throws an ApiError with the server's
 * message.
 */
export function createApiClient(options: { server: string; token?: string; fetch?: Fetch; version?: string }) {
  const server = serverAddress(options.server)
  const fetchImpl = options.fetch ?? fetch

  async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const binary = body instanceof Uint8Array
    let response: Response
    try {
      response = await fetchImpl(`${server}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.version ? { 'x-aether-client-version': options.version } : {}),
          ...(body === undefined ? {} : { 'content-type': binary ? 'image/png' : 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : binary ? (body as BodyInit) : JSON.stringify(body),
      })
    } catch (error) {
      throw new ApiError(
        0,
        'UNREACHABLE',
        `Could not reach the Aether server at ${server} (${networkReason(error)}). Check the address, and that the server is running and this machine can reach it.`,
      )
    }
    const text = await response.text()
    let parsed: { data?: T; message?: string; code?: string } | null = null
    try {
      parsed = text ? (JSON.parse(text) as typeof parsed) : {}
    } catch {
      // Not JSON: a proxy's error page, or not an Aether server at all.
    }
    if (response.status === 401 && options.token)
      throw new DeviceRevokedError(
        401,
        parsed?.code,
        `This runner is no longer connected to ${server}: it was disconnected (on the website in Settings -> Devices, or by \`forget\`), or its member left the workspace. Connect it again: aether-runner pair --server ${server}`,
      )
    if (!parsed || (!response.ok && !parsed.message))
      throw new ApiError(
        response.status,
        parsed?.code,
        `${server}${path} answered ${response.status}, not as an Aether server does. Check the address: the site's own address, e.g. https://aether.example.com.`,
      )
    if (!response.ok) throw new ApiError(response.status, parsed.code, parsed.message ?? `${method} ${path} answered ${response.status}`)
    return parsed.data as T
  }

  return {
    server,
    get: <T>(path: string) => call<T>('GET', path),
    post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
    delete: <T>(path: string) => call<T>('DELETE', path),
    /** Sends an image as the body: a PNG screenshot, or a JPEG step picture. */
    upload: <T>(path: string, image: Uint8Array, type: 'image/png' | 'image/jpeg' = 'image/png') =>
      call<T>('POST', path, image, { 'content-type': type }),
  }
}

export type ApiClient = ReturnType<typeof createApiClient>
