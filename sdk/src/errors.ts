/**
 * An answer of the Aether API that is not a success, with the server's `code` and `message`
 * (docs/decisions/005), or no answer at all: status 0, code `UNREACHABLE`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/**
 * The server refused the token this client sends (401 with `WWW-Authenticate: Bearer
 * error="invalid_token"`): an API key revoked in Settings, or a device disconnected on the website. Nothing sent with that token will work until there is a new one.
 */
export class TokenRefusedError extends ApiError {
  override name = 'TokenRefusedError'
}
