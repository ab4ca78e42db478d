import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

// A small site on 127.0.0.1 for the tests of secrets bound to origins (docs/decisions/039). Two of
// them, on two ports, are two origins: the site a secret belongs to, and another one. Each records
// what reaches it: forms posted, every keystroke its pages saw (a page can read a field as it is
// typed, before any form is sent), and the addresses asked for.

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`

const escape = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`)

/** A sign-in form whose field reports every change to /keys, as a hostile page would. */
const LOGIN = page(
  'Sign in',
  `<h1>Sign in</h1><form method="post" action="/login"><label>Token <input name="token" autocomplete="off"></label><button type="submit">Send</button></form>
<script>document.querySelector('input').addEventListener('input', (event) => { navigator.sendBeacon('/keys', event.target.value) })</script>`,
)

/** A note whose text box is an editable <div> (no form field): what it is given shows as its text. */
const NOTES = page(
  'Notes',
  `<h1>Notes</h1><div id="note-label">Token</div><div role="textbox" aria-labelledby="note-label" contenteditable="true" id="note"></div>`,
)

export interface OriginSite {
  /** http://127.0.0.1:port: the site's origin, too. */
  url: string
  /** Forms posted to /login, in order. */
  readonly posted: Record<string, string>[]
  /** What the page's script saw typed into its field, in order. */
  readonly keystrokes: string[]
  /** Every address asked for (path and query, as sent). */
  readonly requests: string[]
  /** /away redirects there; /framed shows it in an iframe. */
  links: { away?: string; frame?: string }
  close(): Promise<void>
}

/**
 * /login (LOGIN; a post answers "Signed in"), /notes (NOTES), /away (a redirect to `links.away`),
 * /framed (a page with `links.frame` in an iframe), /echo?q= (shows what it was asked for),
 * anything else 404.
 */
export async function startOriginSite(): Promise<OriginSite> {
  const state = { posted: [] as Record<string, string>[], keystrokes: [] as string[], requests: [] as string[] }
  const links: OriginSite['links'] = {}
  const server = createServer((request, response) => {
    void (async () => {
      state.requests.push(request.url ?? '/')
      const url = new URL(request.url ?? '/', 'http://site')
      const html = (body: string, status = 200) =>
        response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body)
      let body = ''
      for await (const piece of request) body += String(piece)
      if (request.method === 'POST' && url.pathname === '/keys') {
        state.keystrokes.push(body)
        return response.writeHead(204).end()
      }
      if (url.pathname === '/login' && request.method === 'POST') {
        state.posted.push(Object.fromEntries(new URLSearchParams(body)))
        return html(page('Signed in', '<h1>Signed in</h1>'))
      }
      if (url.pathname === '/login') return html(LOGIN)
      if (url.pathname === '/notes') return html(NOTES)
      if (url.pathname === '/away' && links.away) return response.writeHead(302, { location: links.away }).end()
      if (url.pathname === '/framed' && links.frame)
        return html(
          page('Framed', `<h1>Framed</h1><iframe title="Sign-in frame" src="${escape(links.frame)}" width="600" height="300"></iframe>`),
        )
      if (url.pathname === '/echo') return html(page('Echo', `<p id="asked">${escape(url.searchParams.get('q') ?? '')}</p>`))
      return html('Not found', 404)
    })()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    ...state,
    links,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
