import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** The small form page cloud-run tests fill in: a name, a plan, a submit that shows a result. */
const FORM_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Sign-up form</title></head>
  <body>
    <form id="signup">
      <label>Name <input id="name" name="name"></label>
      <label>Plan <select id="plan"><option value="free">Free</option><option value="pro">Pro</option></select></label>
      <button id="submit" type="submit">Send</button>
    </form>
    <p id="result" hidden></p>
    <ul>
      <li class="item"><a href="/alpha">Alpha</a></li>
      <li class="item"><a href="/beta">Beta</a></li>
    </ul>
    <script>
      document.getElementById('signup').addEventListener('submit', (event) => {
        event.preventDefault()
        setTimeout(() => {
          const result = document.getElementById('result')
          result.textContent = 'Thanks, ' + document.getElementById('name').value + ' (' + document.getElementById('plan').value + ')'
          result.hidden = false
        }, 300)
      })
    </script>
  </body>
</html>`

/** A button "Late" that shows up `ms` after the page loaded; clicking it says "Clicked". */
const latePage = (ms: number) => `<!doctype html><title>Late</title><p id="state">waiting</p><script>
setTimeout(() => {
  const button = document.createElement('button')
  button.textContent = 'Late'
  button.onclick = () => { document.getElementById('state').textContent = 'Clicked' }
  document.body.append(button)
}, ${Math.max(0, Math.min(ms, 60_000)) || 0})
</script>`

/** The code a person types on CODE_PAGE. */
export const PERSON_CODE = '4711'

/**
 * A page no automation passes alone: it wants a code only a person has. The field and the button
 * are where a click in the live view can find them: the field at 0–400 × 100–160, the button at
 * 0–400 × 300–400 (CSS pixels).
 */
const CODE_PAGE = `<!doctype html><html lang="en"><title>Verify</title>
<h1>Enter the code we sent you</h1>
<input id="code" aria-label="Code" style="position:absolute;left:0;top:100px;width:400px;height:60px">
<button id="verify" style="position:absolute;left:0;top:300px;width:400px;height:100px">Verify</button>
<p id="state" style="position:absolute;top:450px">Not verified</p>
<script>
document.getElementById('verify').onclick = () => {
  document.getElementById('state').textContent = document.getElementById('code').value === '${PERSON_CODE}' ? 'Verified' : 'Wrong code'
}
</script></html>`

/** A shop behind a check that asks for a person (a box to tick), as bot walls do: the shop shows once it is ticked. */
const WALL_PAGE = `<!doctype html><html lang="en"><title>Just a moment...</title>
<h1>Verify you are human</h1>
<label style="position:absolute;left:0;top:100px;width:400px;height:60px"><input type="checkbox" id="human" style="width:40px;height:40px"> I am not a robot</label>
<script>
document.getElementById('human').onchange = () => {
  document.title = 'Shop'
  document.body.innerHTML = '<h1>Shop</h1><button onclick="this.textContent = \\'In the cart\\'">Add to cart</button>'
}
</script></html>`

/**
 * A page that asks the browser for WebRTC candidates from a STUN and a TURN server at
 * 127.0.0.1:`port` (UDP): a browser that may send UDP past the proxy sends packets there.
 */
const webRtcPage = (port: string) => `<!doctype html><title>WebRTC</title><p id="state">gathering</p><script>
const servers = [{ urls: 'stun:127.0.0.1:${port}' }, { urls: 'turn:127.0.0.1:${port}?transport=udp', username: 'u', credential: 'p' }]
const connection = new RTCPeerConnection({ iceServers: servers })
connection.createDataChannel('probe')
connection.onicegatheringstatechange = () => {
  if (connection.iceGatheringState === 'complete') document.getElementById('state').textContent = 'gathered'
}
connection.createOffer().then((offer) => connection.setLocalDescription(offer))
</script>`

/**
 * A local site for cloud-run tests, on 127.0.0.1: /form (FORM_PAGE), /redirect
 * (to `redirectTo`), /pixel (a page with an image on `imageFrom`), /webrtc?port=N (webRtcPage),
 * /late?ms=N (a button that shows up N ms after the page loads), /code (CODE_PAGE),
 * anything else 404.
 */
export async function startTestSite(options: { redirectTo?: string; imageFrom?: string } = {}) {
  /** How often each address (path and query) was requested. */
  const hits = new Map<string, number>()
  const server: Server = createServer((request, response) => {
    hits.set(request.url ?? '/', (hits.get(request.url ?? '/') ?? 0) + 1)
    const path = (request.url ?? '/').split('?')[0]
    if (path === '/form') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(FORM_PAGE)
    } else if (path === '/redirect' && options.redirectTo) {
      response.writeHead(302, { location: options.redirectTo }).end()
    } else if (path === '/webrtc') {
      const port = new URL(request.url ?? '/', 'http://site').searchParams.get('port') ?? '0'
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(webRtcPage(String(Number(port))))
    } else if (path === '/late') {
      const ms = Number(new URL(request.url ?? '/', 'http://site').searchParams.get('ms') ?? '1000')
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(latePage(ms))
    } else if (path === '/wall') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(WALL_PAGE)
    } else if (path === '/code') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(CODE_PAGE)
    } else if (path === '/pixel') {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>Pixel</title><p id="ready">Ready</p><img alt="" src="${options.imageFrom ?? ''}">`)
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => {
      // A browser's kept-alive connections would hold close() open until they time out.
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
