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

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>

/**
 * The local runner's view of the Aether API (README "API"): the server's address and the device's
 * bearer token. Every call answers the response's `data`, or throws an ApiError with the server's
 * message.
 */
export function createApiClient(options: { server: string; token?: string; fetch?: Fetch; version?: string }) {
  const server = options.server.replace(/\/+$/, '')
  const fetchImpl = options.fetch ?? fetch

  async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const binary = body instanceof Uint8Array
    const response = await fetchImpl(`${server}${path}`, {
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
    const text = await response.text()
    let parsed: { data?: T; message?: string; code?: string } = {}
    try {
      parsed = text ? (JSON.parse(text) as typeof parsed) : {}
    } catch {
      // Not JSON (a proxy's error page): the status says enough.
    }
    if (!response.ok) throw new ApiError(response.status, parsed.code, parsed.message ?? `${method} ${path} answered ${response.status}`)
    return parsed.data as T
  }

  return {
    server,
    get: <T>(path: string) => call<T>('GET', path),
    post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
    upload: <T>(path: string, png: Uint8Array) => call<T>('POST', path, png),
  }
}

export type ApiClient = ReturnType<typeof createApiClient>
