import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// Small websites for the planner, the inspector and self-repair, served on 127.0.0.1 in tests and
// in `npm run bench:planner`: a contact form, a product table with pages, a sign-in, a search.
// Each comes in designs with the same words: the original, and a redesign whose ids, classes,
// markup and layout all changed while names, labels and placeholders stayed (what a site's
// redesign usually keeps). A third, 'reworded', is the redesign whose buttons and links also say
// things a little differently ('Log in' for 'Sign in'). `redesign()` switches the design the plain
// paths serve, as a site that changes under an automation would; /original/…, /redesigned/… and
// /reworded/… always serve one design.

export type Design = 'original' | 'redesigned' | 'reworded'
const DESIGNS: readonly string[] = ['original', 'redesigned', 'reworded']

/** The reworded design: the redesign's markup, with its buttons and links said differently. */
const REWORDED: [string, string][] = [
  ['>Send message</button>', '>Send your message</button>'],
  ['type="submit">Sign in</button>', 'type="submit">Log in</button>'],
  ['type="submit">Search</button>', 'type="submit">Find</button>'],
  ['>Next page</a>', '>Next</a>'],
]
const reworded = (html: string) => REWORDED.reduce((text, [from, to]) => text.split(from).join(to), html)

export const PRODUCTS = [
  { name: 'Trail Runner Shoes', price: '89.00', stock: 12 },
  { name: 'Rain Jacket', price: '129.50', stock: 4 },
  { name: 'Wool Socks', price: '14.99', stock: 40 },
  { name: 'Day Pack 20L', price: '59.00', stock: 0 },
  { name: 'Headlamp', price: '34.90', stock: 17 },
  { name: 'Water Bottle', price: '19.00', stock: 25 },
  { name: 'Camping Stove', price: '74.00', stock: 3 },
  { name: 'Sleeping Bag', price: '199.00', stock: 6 },
  { name: 'Trekking Poles', price: '64.50', stock: 9 },
  { name: 'First Aid Kit', price: '24.00', stock: 30 },
  { name: 'Sun Hat', price: '22.00', stock: 14 },
  { name: 'Compass', price: '18.50', stock: 11 },
]
export const PAGE_SIZE = 5
export const ACCOUNT = { email: 'walker@example.com', password: 'trail-mix-42' }

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
const page = (title: string, body: string, design: Design) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:sans-serif;margin:${design === 'original' ? '2rem' : '1rem 4rem'}}.row{display:flex;gap:1rem}</style></head>
<body>${design === 'original' ? '<header><a href="/">Outdoor Shop</a></header>' : '<nav><a href="/">Outdoor Shop home</a></nav>'}<main>${body}</main></body></html>`

function contactForm(design: Design): string {
  if (design === 'original') {
    return page(
      'Contact us',
      `<h1>Contact us</h1>
<form id="contact-form" method="post" action="contact">
  <label for="fullname">Full name</label> <input id="fullname" name="name">
  <label for="email">Email</label> <input id="email" name="email" type="email">
  <label for="topic">Topic</label> <select id="topic" name="topic"><option>Order question</option><option>Returns</option><option>Other</option></select>
  <label for="msg">Message</label> <textarea id="msg" name="message"></textarea>
  <button id="send" type="submit">Send message</button>
</form>`,
      design,
    )
  }
  return page(
    'Contact us',
    `<section class="card"><h2>Contact us</h2>
<form class="f-2" method="post" action="contact">
  <div class="row"><label>Email <input class="i-em" name="email" type="email"></label><label>Full name <input class="i-nm" name="name"></label></div>
  <label>Message <textarea class="i-tx" name="message" rows="6"></textarea></label>
  <label>Topic <select class="i-tp" name="topic"><option>Other</option><option>Returns</option><option>Order question</option></select></label>
  <div class="row"><button class="btn btn-primary" type="submit">Send message</button><a href="/">Cancel</a></div>
</form></section>`,
    design,
  )
}

function contactDone(design: Design, form: URLSearchParams): string {
  const name = form.get('name') ?? ''
  const body = `<p class="${design === 'original' ? 'notice' : 'flash ok'}" role="status">Thank you, ${escape(name)}! We will answer about ${escape(form.get('topic') ?? '')} soon.</p>`
  return page('Message sent', body, design)
}

function productTable(design: Design, pageNumber: number): string {
  const pages = Math.ceil(PRODUCTS.length / PAGE_SIZE)
  const current = Math.min(Math.max(1, pageNumber), pages)
  const rows = PRODUCTS.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE)
  const next = current < pages ? `<a href="?page=${current + 1}" ${design === 'original' ? 'id="next"' : 'class="pg-n"'}>Next page</a>` : ''
  const previous = current > 1 ? `<a href="?page=${current - 1}">Previous page</a>` : ''
  if (design === 'original') {
    return page(
      'Products',
      `<h1>Products</h1><table id="products"><thead><tr><th>Name</th><th>Price</th><th>Stock</th></tr></thead><tbody>
${rows.map((row) => `<tr class="product"><td class="name">${escape(row.name)}</td><td class="price">${row.price}</td><td>${row.stock}</td></tr>`).join('\n')}
</tbody></table><p>Page ${current} of ${pages}</p>${previous} ${next}`,
      design,
    )
  }
  return page(
    'Products',
    `<h2>Products</h2><p>Page ${current} of ${pages}</p><table class="t-list"><thead><tr><th>Stock</th><th>Name</th><th>Price</th></tr></thead><tbody>
${rows.map((row) => `<tr><td>${row.stock}</td><td class="c1">${escape(row.name)}</td><td class="c2">${row.price}</td></tr>`).join('\n')}
</tbody></table><div class="pager">${next} ${previous}</div>`,
    design,
  )
}

function signIn(design: Design, error: string | null): string {
  const problem = error ? `<p role="alert" class="${design === 'original' ? 'error' : 'err-x'}">${escape(error)}</p>` : ''
  if (design === 'original') {
    return page(
      'Sign in',
      `<h1>Sign in</h1>${problem}<form id="login" method="post" action="signin">
<label for="user">Email</label> <input id="user" name="email" type="email">
<label for="pass">Password</label> <input id="pass" name="password" type="password">
<button id="go" type="submit">Sign in</button></form>`,
      design,
    )
  }
  return page(
    'Sign in',
    `<div class="box"><h2>Welcome back</h2>${problem}<form class="lg" method="post" action="signin">
<input aria-label="Email" class="x1" name="email" type="email" placeholder="you@example.com">
<input aria-label="Password" class="x2" name="password" type="password">
<a href="/forgot">Forgot password?</a><button class="b-primary" type="submit">Sign in</button></form></div>`,
    design,
  )
}

function account(design: Design, email: string): string {
  return page(
    'Your account',
    `<h1>Your account</h1><p class="${design === 'original' ? 'hello' : 'hi'}">Welcome back, ${escape(email)}</p>
<h2>Orders</h2><ul class="orders"><li>Order 1001: Shipped</li><li>Order 1002: Processing</li></ul>`,
    design,
  )
}

function search(design: Design, query: string | null): string {
  const found = query === null ? [] : PRODUCTS.filter((product) => product.name.toLowerCase().includes(query.toLowerCase()))
  const results =
    query === null
      ? ''
      : found.length === 0
        ? `<p>No products match “${escape(query)}”.</p>`
        : design === 'original'
          ? `<h2>Results</h2><ul id="results">${found.map((product) => `<li class="result"><span class="title">${escape(product.name)}</span> <span class="cost">$${product.price}</span></li>`).join('')}</ul>`
          : `<h3>${found.length} results</h3><div class="grid">${found.map((product) => `<article class="tile"><h4>${escape(product.name)}</h4><p class="p">$${product.price}</p></article>`).join('')}</div>`
  const form =
    design === 'original'
      ? `<form id="search" action="search"><input id="q" name="q" placeholder="Search products" value="${escape(query ?? '')}"> <button id="find" type="submit">Search</button></form>`
      : `<form class="s" action="search" role="search"><button class="s-b" type="submit">Search</button><input class="s-i" name="q" placeholder="Search products" value="${escape(query ?? '')}"></form>`
  return page('Search', `${design === 'original' ? '<h1>Search</h1>' : '<h2>Find gear</h2>'}${form}${results}`, design)
}

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

/** Starts the practice sites on a free 127.0.0.1 port. */
export async function startPracticeSites() {
  let current: Design = 'original'
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://practice')
      const [, first, ...rest] = url.pathname.split('/')
      const named = first !== undefined && DESIGNS.includes(first)
      const chosen = (named ? first : current) as Design
      // Reworded pages are the redesign's, with other words on their buttons.
      const design: Design = chosen === 'reworded' ? 'redesigned' : chosen
      const path = named ? `/${rest.join('/')}` : url.pathname
      const html = (status: number, body: string) =>
        response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(chosen === 'reworded' ? reworded(body) : body)
      if (path === '/contact') {
        if (request.method === 'POST') return html(200, contactDone(design, await formBody(request)))
        return html(200, contactForm(design))
      }
      if (path === '/products') return html(200, productTable(design, Number(url.searchParams.get('page') ?? '1')))
      if (path === '/signin') {
        if (request.method !== 'POST') return html(200, signIn(design, null))
        const form = await formBody(request)
        if (form.get('email') === ACCOUNT.email && form.get('password') === ACCOUNT.password)
          return html(200, account(design, ACCOUNT.email))
        return html(401, signIn(design, 'That email and password do not match.'))
      }
      if (path === '/search') return html(200, search(design, url.searchParams.get('q')))
      if (path === '/') {
        return html(
          200,
          page(
            'Outdoor Shop',
            '<h1>Outdoor Shop</h1><ul><li><a href="products">Products</a></li><li><a href="search">Search</a></li><li><a href="contact">Contact us</a></li><li><a href="signin">Sign in</a></li></ul>',
            design,
          ),
        )
      }
      return html(404, page('Not found', '<h1>Not found</h1>', design))
    })()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    /** The plain paths serve the other design from now on. */
    redesign(design: Design = 'redesigned') {
      current = design
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Kept-alive connections (a browser's, a proxy's) would hold the close.
        server.closeAllConnections()
      }),
  }
}

export type PracticeSites = Awaited<ReturnType<typeof startPracticeSites>>
