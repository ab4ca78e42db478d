import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// The practice site of the workflow tests (issue 29): an order form that posts to the server and
// shows what it saved (or why not), and a shop of products on pages of three, some out of stock,
// each with its own page and price. Written like an ordinary server-rendered site: nothing on it
// knows about Aether.

export interface Product {
  id: number
  name: string
  price: string
  inStock: boolean
}

export const PRODUCTS: Product[] = [
  { id: 1, name: 'Oak table', price: '$120.00', inStock: true },
  { id: 2, name: 'Pine chair', price: '$45.50', inStock: false },
  { id: 3, name: 'Birch shelf', price: '$80.25', inStock: true },
  { id: 4, name: 'Maple desk', price: '$210.00', inStock: true },
  { id: 5, name: 'Cedar chest', price: '$150.75', inStock: false },
  { id: 6, name: 'Walnut stool', price: '$39.99', inStock: true },
  { id: 7, name: 'Ash bench', price: '$99.00', inStock: true },
]
const PER_PAGE = 3

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

const FORM = page(
  'New order',
  `<h1>New order</h1>
  <form method="post" action="/orders">
    <label>Customer name <input name="name"></label>
    <label>Email <input name="email" type="text"></label>
    <label>Quantity <input name="quantity" type="number"></label>
    <button type="submit">Place order</button>
  </form>`,
)

/** What the test switches: orders from these names are refused as if the shop were down; the shop shows a Continue link. */
interface SiteState {
  refusing: Set<string>
  showContinue: boolean
}

/** What /report.csv downloads. */
export const REPORT_CSV = 'product,price\r\nOak table,$120.00\r\n'

const UPLOAD_FORM = page(
  'Upload',
  `<form method="post" action="/upload" enctype="multipart/form-data">
    <label>Attachment <input type="file" name="attachment"></label>
    <button type="submit">Send</button>
  </form>`,
)

function shopPage(n: number, state: SiteState): string {
  const items = PRODUCTS.slice((n - 1) * PER_PAGE, n * PER_PAGE)
  const last = n * PER_PAGE >= PRODUCTS.length
  const cards = items
    .map(
      (product) => `<article class="product">
        <h2 class="name">${product.name}</h2>
        ${product.inStock ? '<p>In stock</p>' : '<p class="badge">Out of stock</p>'}
        <a href="/products/${product.id}">View details</a>
      </article>`,
    )
    .join('')
  const next = last ? '' : `<a href="/shop?page=${n + 1}">Next</a>`
  const onward = state.showContinue ? '<a href="/order">Continue</a>' : ''
  return page(`Shop, page ${n}`, `<h1>Shop</h1><main>${cards}</main><nav>${next}${onward}</nav>`)
}

const productPage = (product: Product) =>
  page(
    product.name,
    `<h1>${product.name}</h1><p>Price: <span class="price">${product.price}</span></p><a href="/shop">Back to the shop</a>`,
  )

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  let body = ''
  for await (const chunk of request) body += String(chunk)
  return new URLSearchParams(body)
}

/** Starts the site on a free loopback port; `orders` holds every order posted, bad ones included. */
export async function startWorkflowSite() {
  const orders: { name: string; email: string; quantity: string }[] = []
  const state: SiteState = { refusing: new Set(), showContinue: false }
  const uploads: { name: string; content: string }[] = []
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost')
      const send = (status: number, html: string) => {
        response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
        response.end(html)
      }
      if (url.pathname === '/order') return send(200, FORM)
      if (url.pathname === '/orders' && request.method === 'POST') {
        const form = await formOf(request)
        const order = { name: form.get('name') ?? '', email: form.get('email') ?? '', quantity: form.get('quantity') ?? '' }
        if (state.refusing.has(order.name)) return send(503, page('Try later', '<p role="alert">The shop is busy: try again later.</p>'))
        orders.push(order)
        if (!order.email.includes('@'))
          return send(422, page('Order refused', `<p role="alert">Order refused: "${escape(order.email)}" is not an e-mail address.</p>`))
        return send(
          200,
          page(
            'Order saved',
            `<p role="status">Order saved for ${escape(order.name)} (${escape(order.quantity)})</p><a href="/order">New order</a>`,
          ),
        )
      }
      if (url.pathname === '/report') return send(200, page('Reports', '<h1>Reports</h1><a href="/report.csv">Download report</a>'))
      if (url.pathname === '/report.csv') {
        response.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' })
        return response.end(REPORT_CSV)
      }
      if (url.pathname === '/upload' && request.method === 'GET') return send(200, UPLOAD_FORM)
      if (url.pathname === '/upload') {
        // A multipart body's file part: its file name and its content, as the site saw them.
        let body = ''
        for await (const chunk of request) body += String(chunk)
        const part = /filename="([^"]*)"\r\nContent-Type: [^\r]*\r\n\r\n([\s\S]*?)\r\n--/.exec(body)
        uploads.push({ name: part?.[1] ?? '', content: part?.[2] ?? '' })
        return send(
          200,
          page('Received', `<p role="status">Received ${escape(part?.[1] ?? 'nothing')} (${part?.[2]?.length ?? 0} bytes)</p>`),
        )
      }
      if (url.pathname === '/shop') return send(200, shopPage(Math.max(1, Number(url.searchParams.get('page')) || 1), state))
      const product = /^\/products\/(\d+)$/.exec(url.pathname)
      const found = product ? PRODUCTS.find((each) => each.id === Number(product[1])) : undefined
      if (found) return send(200, productPage(found))
      send(404, page('Not found', '<p>Not found</p>'))
    })()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    orders,
    uploads,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
