import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

// Pages for the verb steps' tests (server/browser/verb-actions.test.ts): controls that answer the
// way web apps' do (a switch drawn with aria-checked, a menu that opens on hover, a title edited
// by double-click, a confirm, a popup, a list that loads more as one scrolls).

const CONTROLS = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Controls</title></head>
<body>
  <label><input type="checkbox" id="remember"> Remember me</label>
  <label><input type="checkbox" id="news" checked> Newsletter</label>
  <div role="switch" aria-checked="false" tabindex="0" id="dark">Dark mode</div>
  <nav><button id="account">Account</button><div id="submenu" hidden><a href="#out">Sign out</a></div></nav>
  <h2 id="title">Quarterly report</h2>
  <label>City <input id="city" value="Paris"></label>
  <label>Start date <input type="date" id="start"></label>
  <label>Amount <input type="number" id="amount"></label>
  <div role="textbox" contenteditable="true" aria-label="Notes" id="notes"></div>
  <label>Country <select id="country"><option value="">Choose</option><option value="de">Germany</option><option value="fr">France</option></select></label>
  <button id="delete">Delete</button><button id="name">Name it</button>
  <p id="outcome"></p>
  <a href="/help" target="_blank">Open help</a>
  <a href="/second">Next page</a>
  <p id="loading">Loading…</p>
  <ul><li class="row">One</li><li class="row">Two</li><li class="row">Three</li></ul>
  <script>
    const dark = document.getElementById('dark')
    dark.addEventListener('click', () => dark.setAttribute('aria-checked', String(dark.getAttribute('aria-checked') !== 'true')))
    document.getElementById('account').addEventListener('mouseenter', () => { document.getElementById('submenu').hidden = false })
    const title = document.getElementById('title')
    title.addEventListener('dblclick', () => { title.textContent = 'Editing the title' })
    const outcome = document.getElementById('outcome')
    document.getElementById('delete').addEventListener('click', () => { outcome.textContent = confirm('Delete the report?') ? 'Deleted' : 'Kept' })
    document.getElementById('name').addEventListener('click', () => { outcome.textContent = 'Named ' + prompt('Its name?') })
    setTimeout(() => document.getElementById('loading').remove(), 400)
  </script>
</body></html>`

/** A feed that adds ten items each time it is scrolled to its end (items 1 to 100). */
const FEED = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Feed</title>
<style>#list { height: 400px; overflow-y: auto } .item { height: 60px }</style></head>
<body><h1>Feed</h1><div id="list"></div>
<script>
  const list = document.getElementById('list')
  let shown = 0
  const more = () => { for (let i = 0; i < 10 && shown < 100; i++) { const item = document.createElement('div'); item.className = 'item'; item.textContent = 'Item ' + (++shown); list.append(item) } }
  more()
  list.addEventListener('scroll', () => { if (list.scrollTop + list.clientHeight >= list.scrollHeight - 5) setTimeout(more, 100) })
</script></body></html>`

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`

export async function startVerbSite(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname
    const html =
      path === '/controls'
        ? CONTROLS
        : path === '/feed'
          ? FEED
          : path === '/help'
            ? page('Help', '<h1>Help page</h1>')
            : path === '/second'
              ? page('Second', '<h1>Second page</h1>')
              : null
    if (!html) return void response.writeHead(404).end()
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
