import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A book finder drawn as single-page apps draw themselves: the page loads as an empty shell, its
 * script asks for data a moment later and draws the form and a list; it becomes usable only once
 * a second answer came (as a page before hydration: the button does nothing, what is typed is
 * drawn over); and every change draws the whole view again (new elements, none kept).
 */
const appScript = (bootMs: number) => `
const state = { popular: null, ready: false, query: '', results: null }
const app = document.getElementById('app')
const escape = (text) => text.replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';')
function render() {
  const books = state.results ?? state.popular ?? []
  app.innerHTML =
    '<h1>Book finder</h1>' +
    '<div role="search"><input placeholder="Book title" value="' + escape(state.query) + '">' +
    '<button type="button">Search</button></div>' +
    '<p class="summary">' + (state.results ? 'Found ' + state.results.length + ' books for ' + escape(state.query) : 'Popular this week') + '</p>' +
    '<ul>' + books.map((book) => '<li class="book">' + escape(book) + '</li>').join('') + '</ul>'
  if (!state.ready) return
  const input = app.querySelector('input')
  input.addEventListener('input', () => { state.query = input.value })
  app.querySelector('button').addEventListener('click', async () => {
    const answer = await fetch('/api/search?q=' + encodeURIComponent(state.query))
    state.results = (await answer.json()).books
    render()
  })
}
setTimeout(async () => {
  state.popular = (await (await fetch('/api/popular')).json()).books
  render()
  await fetch('/api/preferences')
  state.ready = true
  render()
}, ${bootMs})
`

const shell = (bootMs: number) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Book finder</title></head>
<body><main id="app"><p>Loading…</p></main><script src="/app.js?boot=${bootMs}"></script></body></html>`

const BOOKS = ['Dune', 'Dune Messiah', 'Emma', 'Persuasion', 'Middlemarch']
/** How long the site's data takes to answer, as a real server's would. */
const ANSWER_MS = 300

/**
 * The book finder on 127.0.0.1: / (the shell; ?boot=N: its script starts drawing N ms after it
 * ran, 120 by default), /app.js, /api/popular, /api/preferences, /api/search?q=…
 */
export async function startLateRenderingSite() {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site')
    const boot = Math.max(0, Math.min(Number(url.searchParams.get('boot') ?? '120') || 0, 10_000))
    const json = (value: unknown) =>
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value)), ANSWER_MS)
    if (url.pathname === '/') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shell(boot))
    else if (url.pathname === '/app.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(appScript(boot))
    else if (url.pathname === '/api/popular') json({ books: ['Emma', 'Persuasion', 'Middlemarch'] })
    else if (url.pathname === '/api/preferences') json({ language: 'en' })
    else if (url.pathname === '/api/search') {
      const query = (url.searchParams.get('q') ?? '').toLowerCase()
      json({ books: query ? BOOKS.filter((book) => book.toLowerCase().includes(query)) : [] })
    } else response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
