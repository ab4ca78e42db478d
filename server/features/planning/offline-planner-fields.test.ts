import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Page } from 'playwright-core'
import { beforeEach, describe, expect, it } from 'vitest'
import { inWords, plannerPages } from '#server/testing/planner-pages.ts'

// Running what a page can run and filling in fields shown beside their names: 'Run the List loans
// request' opens that operation and presses its own Execute (not another operation's);
// 'call List books with author set to Macfarlane' opens it, asks to try it out (its fields are
// locked before), types the author and executes; 'copy the response body' reads what the heading
// "Response body" heads, not the heading. In a tree of editable keys and values, 'set status to
// shipped' and 'replace the notes with …' type into the value beside the key, 'the customer's name
// and email' are the values right of those keys under the row saying customer (not an item's
// name), and 'save the order' clicks Save. Two small pages drawn by script; the test server
// answers their requests and keeps what they sent.

/**
 * An API console: operations that open when their header is clicked. Each shows its parameters
 * (locked until "Try it out"), an Execute button that calls the server, and the answer as the text
 * under the heading "Response body", above the response headers. "Find a book" is open from the
 * start, above the others: its Try it out and Execute come first on the page.
 */
const CONSOLE = `<!doctype html><html><head><title>Library API</title>
<style>
  .op { border: 1px solid #999; margin: 8px 0; padding: 4px; width: 640px }
  .op-head { display: block; width: 100%; text-align: left }
  pre { background: #eee; margin: 0 0 8px }
</style></head><body><main>
<h1>Library API</h1>
<p>Books, loans and members of the lending library, version 2.</p>
<div id="operations"></div>
<script>
  const OPERATIONS = [
    { id: 'find', path: '/api/books/', summary: 'Find a book', about: 'One book by its number.', params: ['bookId'], open: true },
    { id: 'books', path: '/api/books', summary: 'List books', about: 'Every book, or those by one author.', params: ['author'] },
    { id: 'loans', path: '/api/loans', summary: 'List loans', about: 'Loans not yet returned, newest first.', params: [] },
    { id: 'remove', method: 'DELETE', path: '/api/books/', summary: 'Remove a book', about: 'Needs an API key.', params: ['bookId'] },
  ]
  for (const operation of OPERATIONS) {
    const section = document.createElement('section')
    section.className = 'op'
    section.innerHTML =
      '<button class="op-head" aria-expanded="false"><b></b> <code></code> <span></span></button>' +
      '<div class="op-body" hidden><p class="about"></p><div class="params"><h4>Parameters</h4>' +
      '<button class="try">Try it out</button><table></table></div>' +
      '<button class="execute">Execute</button>' +
      '<div class="result" hidden><h5>Response body</h5><pre class="body"></pre><h5>Response headers</h5><pre class="headers"></pre></div></div>'
    section.querySelector('b').textContent = operation.method ?? 'GET'
    section.querySelector('code').textContent = operation.path + (operation.params[0] === 'bookId' ? '{bookId}' : '')
    section.querySelector('.op-head span').textContent = operation.summary
    section.querySelector('.about').textContent = operation.about
    const table = section.querySelector('table'), body = section.querySelector('.op-body')
    if (!operation.params.length) table.outerHTML = '<p>No parameters</p>'
    for (const name of operation.params) {
      const row = table.insertRow(), id = operation.id + '-' + name
      row.insertCell().innerHTML = '<label></label> <small>query</small>'
      row.insertCell().innerHTML = '<input disabled>'
      row.querySelector('label').textContent = name
      row.querySelector('label').htmlFor = id
      row.querySelector('input').id = id
      row.querySelector('input').name = name
    }
    const head = section.querySelector('.op-head')
    const show = (open) => { body.hidden = !open; head.setAttribute('aria-expanded', String(open)) }
    show(Boolean(operation.open))
    head.onclick = () => show(body.hidden)
    const tryIt = section.querySelector('.try')
    tryIt.onclick = () => {
      const trying = tryIt.textContent === 'Try it out'
      tryIt.textContent = trying ? 'Cancel' : 'Try it out'
      section.querySelectorAll('input').forEach((input) => { input.disabled = !trying })
    }
    section.querySelector('.execute').onclick = async () => {
      const query = new URLSearchParams(), inputs = [...section.querySelectorAll('input:not(:disabled)')]
      let url = operation.path
      for (const input of inputs.filter((each) => each.value)) {
        if (input.name === 'bookId') url += encodeURIComponent(input.value)
        else query.set(input.name, input.value)
      }
      const response = await fetch(url + (query.size ? '?' + query : ''), { method: operation.method ?? 'GET' })
      const text = await response.text()
      section.querySelector('.body').textContent = JSON.stringify(JSON.parse(text), null, 2)
      section.querySelector('.headers').textContent = 'content-type: ' + response.headers.get('content-type')
      section.querySelector('.result').hidden = false
    }
    document.getElementById('operations').append(section)
  }
</script></main></body></html>`

/** The order the tree page edits; items come below the customer, each with a name of its own. */
const ORDER = {
  id: 1042,
  status: 'pending',
  customer: { name: 'Ada Lovelace', email: 'ada@engines.example' },
  items: [
    { name: 'Wool socks', qty: 2 },
    { name: 'Hill boots', qty: 1 },
  ],
  notes: 'Leave at the door',
}

/**
 * A tree of keys and values: one table row each, the key and the value each an editable box (an
 * array's index and an object's count are not editable), nested objects as indented rows. Save
 * posts the order as the boxes show it then, renamed keys too. Its rows are 24 pixels high, or
 * 20 when compact.
 */
const tree = (padding: string) => `<!doctype html><html><head><title>Order editor</title>
<style>
  table { border-collapse: collapse } td { padding: ${padding}; font: 14px/16px monospace }
  [contenteditable] { min-width: 40px; outline: 1px dotted #bbb }
</style></head><body><main>
<h1>Order 1042</h1>
<div><button id="save">Save</button> <button id="format">Format</button> <span id="saved"></span></div>
<table><tbody id="tree"></tbody></table>
<script>
  const ORDER = ${JSON.stringify(ORDER)}
  const tree = document.getElementById('tree')
  const draw = (value, path, depth) => {
    for (const [key, inner] of Object.entries(value)) {
      const row = tree.insertRow(), here = [...path, Array.isArray(value) ? Number(key) : key]
      row.dataset.path = JSON.stringify(here)
      const name = row.insertCell()
      name.style.paddingLeft = 8 + depth * 24 + 'px'
      name.innerHTML = Array.isArray(value) ? '<span></span>' : '<div class="key" contenteditable="true"></div>'
      name.firstChild.textContent = key
      row.insertCell().textContent = ':'
      const cell = row.insertCell()
      if (inner && typeof inner === 'object') {
        cell.innerHTML = '<span class="count"></span>'
        cell.firstChild.textContent = Array.isArray(inner) ? '[' + inner.length + ']' : '{' + Object.keys(inner).length + '}'
        draw(inner, here, depth + 1)
      } else {
        cell.innerHTML = '<div class="value" contenteditable="true"></div>'
        cell.firstChild.textContent = String(inner)
      }
    }
  }
  draw(ORDER, [], 0)
  /** The order as the boxes show it: values first, then renamed keys, the deepest first. */
  const shown = () => {
    const order = structuredClone(ORDER), rows = [...tree.rows]
    const parentOf = (path) => path.slice(0, -1).reduce((at, step) => at[step], order)
    for (const row of rows) {
      const path = JSON.parse(row.dataset.path), box = row.querySelector('.value')
      if (!box) continue
      const parent = parentOf(path), old = parent[path.at(-1)]
      parent[path.at(-1)] = typeof old === 'number' && box.textContent.trim() !== '' && !isNaN(Number(box.textContent)) ? Number(box.textContent) : box.textContent
    }
    for (const row of rows.reverse()) {
      const path = JSON.parse(row.dataset.path), key = row.querySelector('.key')
      if (!key || key.textContent === path.at(-1)) continue
      const parent = parentOf(path), entries = Object.entries(parent)
      for (const name of Object.keys(parent)) delete parent[name]
      for (const [name, inner] of entries) parent[name === path.at(-1) ? key.textContent : name] = inner
    }
    return order
  }
  document.getElementById('save').onclick = async () => {
    const response = await fetch('/api/orders/1042', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(shown()) })
    document.getElementById('saved').textContent = response.ok ? 'Saved' : 'Not saved'
  }
</script></main></body></html>`

const PAGES: Record<string, string> = { '/console': CONSOLE, '/order': tree('4px 8px'), '/order-compact': tree('2px 6px') }

const LOANS = [
  { book: 'Underland', member: 'Grace Hopper', due: '2026-07-01' },
  { book: 'The Old Ways', member: 'Ada Lovelace', due: '2026-07-09' },
]
const BOOKS = [
  { id: 1, title: 'Underland', author: 'Macfarlane' },
  { id: 2, title: 'The Living Mountain', author: 'Shepherd' },
]

/** What the pages asked of the server ('GET /api/loans'), and each order Save sent. */
const requests: string[] = []
const saved: unknown[] = []

const bodyOf = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    request.on('data', (chunk: Buffer) => (text += chunk.toString()))
    request.on('end', () => resolve(text))
  })

/** The library API and the order's Save: what the pages ask of the server, answered and noted. */
function api(request: IncomingMessage, response: ServerResponse, url: URL): boolean {
  if (!url.pathname.startsWith('/api/')) return false
  const json = (value: unknown) => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value))
  requests.push(`${request.method} ${url.pathname}${url.search}`)
  if (request.method === 'POST' && url.pathname === '/api/orders/1042') {
    void bodyOf(request).then((text) => {
      saved.push(JSON.parse(text))
      json({ saved: true })
    })
  } else if (url.pathname === '/api/loans') json(LOANS)
  else if (request.method === 'DELETE') response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"no key"}')
  else if (url.pathname === '/api/books') {
    const author = url.searchParams.get('author')
    json(author ? BOOKS.filter((book) => book.author === author) : BOOKS)
  } else json(BOOKS.find((book) => String(book.id) === url.pathname.slice(11)) ?? {})
  return true
}

/** Planning tries each step on the page: what the server saw then is forgotten before the steps run again. */
const forget = () => {
  requests.length = 0
  saved.length = 0
}
beforeEach(forget)

/** What the page shows: the text of each operation's response body, by operation (empty when none), and what Save said. */
interface Shown {
  responses: Record<string, string>
  saved: string
  /** The operations shown open. */
  open: string[]
}

const pageState = (page: Page): Promise<Shown> =>
  page.evaluate(() => ({
    responses: Object.fromEntries(
      [...document.querySelectorAll('.op')].map((op) => [
        op.querySelector('.op-head span')?.textContent ?? '',
        op.querySelector('.result[hidden]') ? '' : (op.querySelector('.body')?.textContent ?? ''),
      ]),
    ),
    saved: document.getElementById('saved')?.textContent ?? '',
    open: [...document.querySelectorAll('.op-head[aria-expanded=true] span')].map((span) => span.textContent ?? ''),
  }))

const pages = plannerPages(PAGES, pageState, api)
const { plan, run } = pages

const LOANS_TEXT = JSON.stringify(LOANS, null, 2)

describe('running what the page can run', () => {
  it('opens the List loans operation and presses its own Execute, not the one of the operation open above it', async () => {
    const { draft, shown } = await plan('Run the List loans request', `${pages.site}/console`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(inWords)).toEqual([
      'Click Button named “GET /api/loans List loans”',
      'Click Button named “Execute” in the card “/api/loans”',
    ])
    expect(draft.tried.map((trial) => trial.problem)).toEqual([null, null, null])
    // "Find a book" is open above it with an Execute of its own: only the loans were asked for.
    expect(requests).toEqual(['GET /api/loans'])
    expect(shown.responses).toEqual({ 'Find a book': '', 'List books': '', 'List loans': LOANS_TEXT, 'Remove a book': '' })
    forget()
    const ran = await run(draft.steps)
    expect(requests).toEqual(['GET /api/loans'])
    expect(ran.shown.responses['List loans']).toBe(LOANS_TEXT)
  })

  it('calls List books with author set to Macfarlane: tries it out before typing, and the request carries the author', async () => {
    const { draft } = await plan('Call List books with author set to Macfarlane', `${pages.site}/console`)
    expect(draft.notes).toEqual([])
    // The author field is locked until "Try it out": that comes before the typing, all in List books.
    expect(draft.steps.slice(1).map(inWords)).toEqual([
      'Click Button named “GET /api/books List books”',
      'Click Button named “Try it out” in the card “List books”',
      'Type “Macfarlane” into Field labelled “author”',
      'Click Button named “Execute” in the card “List books”',
    ])
    expect(draft.tried.map((trial) => trial.problem)).toEqual([null, null, null, null, null])
    expect(requests).toEqual(['GET /api/books?author=Macfarlane'])
    forget()
    const ran = await run(draft.steps)
    expect(requests).toEqual(['GET /api/books?author=Macfarlane'])
    expect(JSON.parse(ran.shown.responses['List books'] ?? '')).toEqual([BOOKS[0]])
  })

  it('looks up book number 2 with the operation named in quotes: left open (it is), its one field gets the 2', async () => {
    const { draft } = await plan('Look up book number 2 with "Find a book"', `${pages.site}/console`)
    expect(draft.notes).toEqual([])
    // The only other operation open shows no Try it out or Execute: the words alone name these.
    expect(draft.steps.slice(1).map(inWords)).toEqual([
      'Click Button named “Try it out”',
      'Type “2” into Field labelled “bookId”',
      'Click Button named “Execute”',
    ])
    forget()
    await run(draft.steps)
    expect(requests).toEqual(['GET /api/books/2'])
  })

  it('removes book 4, listed nowhere, with the operation that says "Remove a book"', async () => {
    const { draft, shown } = await plan('Try to remove book 4 without authorizing', `${pages.site}/console`)
    expect(draft.notes).toEqual([])
    const [opened, tried, typed] = draft.steps.slice(1).map(inWords)
    expect(opened).toBe('Click Button named “DELETE /api/books/{bookId} Remove a book”')
    expect(tried).toMatch(/^Click Button named “Try it out”/)
    // Find a book, open above it, has a bookId field too: this one is the second.
    expect(typed).toBe('Type “4” into 2nd Field labelled “bookId”')
    expect(shown.responses['Remove a book']).toContain('no key')
    forget()
    await run(draft.steps)
    expect(requests).toEqual(['DELETE /api/books/4'])
  })

  it('leaves an operation open that is open already, and opens or closes the others as asked', async () => {
    const { draft, shown } = await plan(
      'Open the Find a book operation, expand List books and collapse List loans',
      `${pages.site}/console`,
    )
    expect(draft.notes).toEqual([])
    // Find a book says it is open (aria-expanded), List loans that it is closed: only List books is clicked.
    expect(draft.steps.slice(1).map(inWords)).toEqual(['Click Button named “GET /api/books List books”'])
    expect(shown.open).toEqual(['Find a book', 'List books'])
    const { open } = (await run(draft.steps)).shown
    expect(open).toEqual(['Find a book', 'List books'])
    expect(shown.responses).toEqual({ 'Find a book': '', 'List books': '', 'List loans': '', 'Remove a book': '' })
  })

  it("reads an endpoint's path: the part of its control's words shaped like a path", async () => {
    const { draft } = await plan('Read the List loans endpoint path', `${pages.site}/console`)
    expect(draft.notes).toEqual([])
    expect(draft.steps[1]).toEqual({
      type: 'extract',
      target: [{ by: 'text', text: '/api/loans', exact: true }],
      field: 'List loans endpoint path',
    })
    const { extracted } = await run(draft.steps)
    expect(extracted).toEqual({ 'List loans endpoint path': ['/api/loans'] })
  })

  it('copies the response body: the text the heading "Response body" heads, not the heading', async () => {
    const { draft } = await plan('Run the List loans request and copy the response body', `${pages.site}/console`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map((step) => step.type)).toEqual(['click', 'click', 'extract'])
    expect(draft.steps[3]).toMatchObject({ type: 'extract', field: 'response body' })
    expect(draft.tried.map((trial) => trial.problem)).toEqual([null, null, null, null])
    forget()
    const { extracted } = await run(draft.steps)
    expect(requests).toEqual(['GET /api/loans'])
    expect(extracted).toEqual({ 'response body': [LOANS_TEXT] })
    expect(JSON.parse(extracted['response body']?.[0] ?? '')).toEqual(LOANS)
  })
})

describe('a tree of editable keys and values', () => {
  it('sets status to shipped: types into the value beside the key, and the saved order says shipped', async () => {
    const { draft } = await plan('Set status to shipped, then save the order', `${pages.site}/order`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(inWords)).toEqual(['Type “shipped” into Text “pending”', 'Click Button named “Save”'])
    expect(draft.tried.map((trial) => trial.problem)).toEqual([null, null, null])
    forget()
    const ran = await run(draft.steps)
    expect(ran.shown.saved).toBe('Saved')
    // The value changed, the key kept its name, nothing else moved.
    expect(saved).toEqual([{ ...ORDER, status: 'shipped' }])
  })

  it('replaces the notes with the words quoted: typed into the value beside "notes", then saved', async () => {
    const { draft } = await plan('Replace the notes with "Ring the bell twice", then save the order', `${pages.site}/order`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(inWords)).toEqual([
      'Type “Ring the bell twice” into Text “Leave at the door”',
      'Click Button named “Save”',
    ])
    forget()
    await run(draft.steps)
    expect(saved).toEqual([{ ...ORDER, notes: 'Ring the bell twice' }])
  })

  it("reads the customer's name and email: the values right of those keys under the customer, not an item's name", async () => {
    // Rows are 24 pixels high: the first item's "name" is five rows (120 pixels) below "customer".
    const { draft } = await plan("Read the customer's name and email from the order", `${pages.site}/order`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map((step) => step.type)).toEqual(['extract', 'extract'])
    const { extracted } = await run(draft.steps)
    expect(extracted).toEqual({ 'customer name': ['Ada Lovelace'], email: ['ada@engines.example'] })
  })

  // With rows 20 pixels high the first item's "name" is as near as 100 pixels below the row saying
  // "customer": the name nearest under it is the customer's.
  it("reads the customer's name in a compact grid too, where an item's name is five rows below the customer", async () => {
    const { draft } = await plan("Read the customer's name and email from the order", `${pages.site}/order-compact`)
    expect(draft.steps.slice(1).map((step) => step.type)).toEqual(['extract', 'extract'])
    const { extracted } = await run(draft.steps)
    expect(extracted).toEqual({ 'customer name': ['Ada Lovelace'], email: ['ada@engines.example'] })
  })

  it('saves the order with a click on the Save button', async () => {
    const { draft } = await plan('save the order', `${pages.site}/order`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1)).toEqual([expect.objectContaining({ type: 'click' })])
    expect(draft.steps.slice(1).map(inWords)).toEqual(['Click Button named “Save”'])
    forget()
    const ran = await run(draft.steps)
    expect(ran.shown.saved).toBe('Saved')
    expect(requests).toEqual(['POST /api/orders/1042'])
    expect(saved).toEqual([ORDER])
  })
})
