import createClient, { type Client, type Middleware } from 'openapi-fetch'
import { ApiError, TokenRefusedError } from './errors.ts'
import type { paths } from './schema.ts'
import { serverAddress } from './server-address.ts'

export interface AetherClientOptions {
  /** The site's address, e.g. https://aether.example.com; the API is at its /api. */
  server: string
  /** An API key (`ak_…`, Settings → API keys) or a connected device's token (`dev_…`). */
  token?: string
  /** Sent as X-Aether-Client-Version: the website shows it in the device list. */
  clientVersion?: string
  /** What a refused token (401) throws, in the client's own words; the server's message when not given. */
  tokenRefusedMessage?: string
  /** Sees every answer before it is read (the extension keeps the API rate limit's headers). */
  onAnswer?: (response: Response) => void
  fetch?: (request: Request) => Promise<Response>
}

/** A typed client of the Aether API (openapi-fetch over the generated `paths`), with the site's address. */
export type AetherClient = Client<paths> & { readonly server: string }

/**
 * A client of one Aether site. Its calls (`GET`, `POST`, … with the paths of the API's OpenAPI
 * document) answer `{ data, response }` when the server says yes, and throw an ApiError with the
 * server's message otherwise, so `dataOf` reads the answer in one line.
 */
export function createAetherClient(options: AetherClientOptions): AetherClient {
  const server = serverAddress(options.server)
  if (!server) throw new TypeError(`${options.server} is not an Aether site's address (e.g. https://aether.example.com).`)
  const client = createClient<paths>({
    baseUrl: `${server}/api`,
    fetch: options.fetch,
    // The token is the credential: a browser's cookies for the site are never sent along with it.
    credentials: 'omit',
    headers: {
      accept: 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.clientVersion ? { 'x-aether-client-version': options.clientVersion } : {}),
    },
    bodySerializer: serializedBody,
  })
  client.use(answersAsErrors(server, options))
  return Object.assign(client, { server })
}

/** JSON, but bytes as they are: an upload (a screenshot) sends a Blob and names its `content-type` header. */
function serializedBody(body: unknown): BodyInit {
  if (body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || body instanceof FormData) return body as BodyInit
  return JSON.stringify(body)
}

/**
 * Turns a refused answer, and a server that cannot be reached, into ApiError. Messages name the
 * route as the document does (`/api/triggers/{secret}`), never the address asked: a path may hold a
 * credential, and messages end up in logs.
 */
function answersAsErrors(server: string, options: AetherClientOptions): Middleware {
  return {
    onError: ({ request, error }) => {
      // Stopped on purpose (an AbortSignal, a timeout): the caller's own error goes on as it is.
      if (request.signal.aborted || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))) return
      return new ApiError(
        0,
        'UNREACHABLE',
        `Could not reach the Aether server at ${server} (${networkReason(error)}). Check the address, and that the server is running and this machine can reach it.`,
      )
    },
    onResponse: async ({ response, schemaPath, options: asked }) => {
      options.onAnswer?.(response)
      if (response.ok && (asked.parseAs !== 'json' || response.status === 204 || isJson(response))) return undefined
      const route = `${server}/api${schemaPath}`
      const type = response.headers.get('content-type') ?? ''
      if (response.ok && type && !/^text\/html\b/i.test(type)) {
        throw new ApiError(
          response.status,
          'UNEXPECTED_ANSWER',
          `${route} answers ${type.split(';')[0]}: read it with { parseAs: 'blob' } or 'text'.`,
        )
      }
      // The body is read whole (not a clone): an answer left unread ties up its connection.
      const text = await response.text().catch(() => '')
      const body = parsedOrNull(text) as { message?: unknown; code?: unknown } | null
      const code = typeof body?.code === 'string' ? body.code : undefined
      // Refused as a credential (RFC 6750's invalid_token), not a wrong secret on a public route (a trigger URL's).
      if (response.status === 401 && options.token && /\binvalid_token\b/.test(response.headers.get('www-authenticate') ?? '')) {
        throw new TokenRefusedError(401, code, options.tokenRefusedMessage ?? stringOr(body?.message, 'The token was refused.'))
      }
      if (!response.ok && typeof body?.message === 'string') throw new ApiError(response.status, code, body.message)
      // Not the API's own answer: a proxy's page while the server restarts, or not an Aether server at all.
      if (response.status === 429 || response.status >= 500) {
        throw new ApiError(
          response.status,
          code,
          `${route} answered ${response.status}: the server may be restarting, or a proxy in front of it failing. Try again in a moment.`,
        )
      }
      throw new ApiError(
        response.status,
        code,
        `${route} answered ${response.status}, not as an Aether server does. Check the address: the site's own address, e.g. https://aether.example.com.`,
      )
    },
  }
}

const isJson = (response: Response) => /^application\/([\w.+-]+\+)?json\b/i.test(response.headers.get('content-type') ?? '')

const stringOr = (value: unknown, otherwise: string) => (typeof value === 'string' ? value : otherwise)

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** Why fetch failed, in the words of the network error under it (ECONNREFUSED, ENOTFOUND, a certificate…). */
function networkReason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
}

/**
 * The `data` of a successful call: every JSON answer of the API is `{ data }`
 * (docs/decisions/005). `await dataOf(aether.GET('/automations'))` is the workspace's automations.
 * An answer that is not JSON after all throws ApiError `UNEXPECTED_ANSWER`.
 */
export async function dataOf<T>(call: Promise<{ data?: { data: T }; response: Response }>): Promise<T> {
  const answer = await call.catch((error: unknown) => {
    if (error instanceof SyntaxError) throw new ApiError(200, 'UNEXPECTED_ANSWER', 'The server answered JSON that cannot be read.')
    throw error
  })
  if (!answer.data || !('data' in answer.data))
    throw new ApiError(answer.response.status, 'UNEXPECTED_ANSWER', 'The server answered without data, not as an Aether server does.')
  return answer.data.data
}
