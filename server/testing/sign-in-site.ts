import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Secret, TOTP } from 'otpauth'

// A site on 127.0.0.1 whose account page is behind a sign-in with a password and a one-time code
// (TOTP, checked by an authenticator library, not by our code): the vault and kept-session tests
// sign in to it (docs/decisions/025).

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`

const escape = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`)

/** The three secrets that sign in to the site, stored in the member's vault for its origin (as a member would on the Vault page). */
export async function storeSignInSecrets(
  app: { request(path: string, init: { token: string; body: unknown }): Promise<Response> },
  token: string,
  site: { url: string },
  account: { user: string; password: string; totpSecret: string },
): Promise<void> {
  for (const [name, kind, value] of [
    ['shop_user', 'username', account.user],
    ['shop_password', 'password', account.password],
    ['shop_totp', 'totp', account.totpSecret],
  ]) {
    const created = await app.request('/api/vault', { token, body: { name, kind, value, origins: [site.url] } })
    if (created.status !== 201) throw new Error(`storing ${name}: ${created.status} ${await created.text()}`)
  }
}

export interface SignInSite {
  url: string
  /** Sign-ins completed (password and code both right). */
  readonly signIns: number
  /** Attempts refused (a wrong password or code). */
  readonly refusals: number
  /** Everything the site was sent in forms, in order (to check what was typed). */
  readonly posted: Record<string, string>[]
  close(): Promise<void>
}

export async function startSignInSite(account: { user: string; password: string; totpSecret: string }): Promise<SignInSite> {
  const totp = new TOTP({ secret: Secret.fromBase32(account.totpSecret), digits: 6, period: 30 })
  const halfSignedIn = new Set<string>()
  const sessions = new Set<string>()
  const state = { signIns: 0, refusals: 0, posted: [] as Record<string, string>[] }

  const cookieOf = (request: IncomingMessage, name: string) =>
    (request.headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .find(([key]) => key === name)?.[1] ?? null

  async function form(request: IncomingMessage): Promise<Record<string, string>> {
    let raw = ''
    for await (const piece of request) raw += String(piece)
    const fields = Object.fromEntries(new URLSearchParams(raw))
    state.posted.push(fields)
    return fields
  }

  const html = (response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) =>
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(body)
  const redirect = (response: ServerResponse, to: string, headers: Record<string, string> = {}) =>
    response.writeHead(303, { location: to, ...headers }).end()

  const server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname
      const signedIn = sessions.has(cookieOf(request, 'sid') ?? '')
      if (request.method === 'GET' && path === '/account') {
        if (!signedIn)
          return html(response, 200, page('Account', '<h1>Your account</h1><p>You are signed out.</p><a href="/login">Sign in</a>'))
        return html(
          response,
          200,
          page(
            'Account',
            `<h1>Your account</h1><p id="who">Signed in as ${escape(account.user)}</p><h2>Your orders</h2><ul><li class="order">Order 1001: rain jacket</li></ul><a href="/logout">Sign out</a>`,
          ),
        )
      }
      if (request.method === 'GET' && path === '/login') {
        return html(
          response,
          200,
          page(
            'Sign in',
            '<h1>Sign in</h1><form method="post" action="/login"><label>User name <input name="user" autocomplete="username"></label><label>Password <input name="password" type="password"></label><button type="submit">Sign in</button></form>',
          ),
        )
      }
      if (request.method === 'POST' && path === '/login') {
        const fields = await form(request)
        if (fields.user !== account.user || fields.password !== account.password) {
          state.refusals += 1
          return html(response, 401, page('Sign in', '<h1>Sign in</h1><p role="alert">Wrong user name or password.</p>'))
        }
        const pending = randomBytes(12).toString('hex')
        halfSignedIn.add(pending)
        return redirect(response, '/login/code', { 'set-cookie': `pending=${pending}; Path=/; HttpOnly` })
      }
      if (request.method === 'GET' && path === '/login/code') {
        return html(
          response,
          200,
          page(
            'One-time code',
            '<h1>Enter your code</h1><form method="post" action="/login/code"><label>One-time code <input name="code" inputmode="numeric"></label><button type="submit">Verify</button></form>',
          ),
        )
      }
      if (request.method === 'POST' && path === '/login/code') {
        const fields = await form(request)
        const pending = cookieOf(request, 'pending') ?? ''
        if (!halfSignedIn.has(pending) || totp.validate({ token: fields.code ?? '', window: 1 }) === null) {
          state.refusals += 1
          return html(response, 401, page('One-time code', '<h1>Enter your code</h1><p role="alert">Wrong code.</p>'))
        }
        halfSignedIn.delete(pending)
        const sid = randomBytes(16).toString('hex')
        sessions.add(sid)
        state.signIns += 1
        // A session cookie that lasts: what a kept browser session carries to the next run.
        return redirect(response, '/account', { 'set-cookie': `sid=${sid}; Path=/; HttpOnly; Max-Age=86400` })
      }
      html(response, 404, page('Not found', '<h1>Not found</h1>'))
    })()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get signIns() {
      return state.signIns
    },
    get refusals() {
      return state.refusals
    },
    get posted() {
      return state.posted
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
