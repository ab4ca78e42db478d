// Pages with lists as web apps draw them (issue 28): a todo list beside its counter and filters,
// a table with headers beside a total, product cards (one sold out, no price), a list of books in
// three pages with a Next link. Served by the planning and extraction tests.

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`

const todo = (text: string, done: boolean) =>
  `<li${done ? ' class="completed"' : ''}><div class="view"><input class="toggle" type="checkbox"${done ? ' checked' : ''}><label>${text}</label><button class="destroy" aria-label="Delete"></button></div></li>`

const TODOS = page(
  'Todos',
  `<section class="todoapp"><header class="header"><h1>todos</h1><input class="new-todo" placeholder="What needs to be done?"></header>
<section class="main"><ul class="todo-list">${todo('Buy milk', true)}${todo('Walk the dog', false)}${todo('Write the report', false)}</ul></section>
<footer class="footer"><span class="todo-count"><strong>2</strong> items left</span>
<ul class="filters"><li><a href="#/" class="selected">All</a></li><li><a href="#/active">Active</a></li><li><a href="#/completed">Completed</a></li></ul></footer></section>`,
)

const ORDERS = page(
  'Orders',
  `<h1>Your orders</h1><p class="summary">3 orders</p><table class="grid"><thead><tr><th>Item</th><th>Placed on</th><th>Amount</th></tr></thead><tbody>
${[
  ['Kettle', '2026-03-02', '€24.90'],
  ['Teapot', '2026-03-09', '€31.00'],
  ['Mugs (4)', '2026-03-16', '€18.40'],
]
  .map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`)
  .join('')}</tbody></table>`,
)

const card = (name: string, price: string | null) =>
  `<div class="product"><img src="/img/${name.toLowerCase()}.png" alt="${name}" width="40" height="40"><h3 class="product-name">${name}</h3>${
    price ? `<span class="price">${price}</span>` : '<span class="stock">Sold out</span>'
  }<button>Add to cart</button></div>`

const SHOP = page(
  'Shop',
  `<nav><a href="/">Home</a> <a href="/cart">Cart (0)</a></nav><h1>Lamps and chairs</h1><p>Showing 3 products</p>
<div class="products">${card('Lamp', '$12.00')}${card('Chair', '$40.00')}${card('Desk', null)}</div>`,
)

/** Page n (1..3) of the books, two a page. */
export function booksPage(n: number): string {
  const books = [
    ['Dune', 'Frank Herbert'],
    ['Emma', 'Jane Austen'],
    ['Ulysses', 'James Joyce'],
    ['Beloved', 'Toni Morrison'],
    ['Solaris', 'Stanisław Lem'],
    ['Kindred', 'Octavia Butler'],
  ].slice((n - 1) * 2, n * 2)
  return page(
    `Books, page ${n}`,
    `<h1>Books</h1><p class="count">Page ${n} of 3</p><ul class="books">${books
      .map(
        ([title, author], index) =>
          `<li class="book"><a href="/book/${n}-${index}">${title}</a> by <span class="author">${author}</span></li>`,
      )
      .join('')}</ul><nav class="pager">${n > 1 ? `<a href="/books?page=${n - 1}">‹ Previous</a> ` : ''}${
      n < 3 ? `<a href="/books?page=${n + 1}">Next ›</a>` : ''
    }</nav>`,
  )
}

/** The same books drawn by a script: a Next button shows the next page without loading one, and is disabled on the last. */
const BOOKS_APP = page(
  'Books app',
  `<h1>Books</h1><ul id="list" aria-label="Books"></ul><button id="prev">Previous</button> <button id="next">Next</button>
<script>
const all = ['Dune', 'Emma', 'Ulysses', 'Beloved', 'Solaris', 'Kindred', 'Ubik']
let at = 0
function show() {
  setTimeout(() => {
    document.getElementById('list').innerHTML = all.slice(at, at + 3).map((title) => '<li>' + title + '</li>').join('')
    document.getElementById('next').disabled = at + 3 >= all.length
  }, 150)
}
document.getElementById('next').onclick = () => { at += 3; show() }
show()
</script>`,
)

export const LIST_PAGES: Record<string, string> = {
  '/todos': TODOS,
  '/orders': ORDERS,
  '/shop': SHOP,
  '/books-app': BOOKS_APP,
}

/** The page for a request path (with its query), or null. */
export function listPage(url: string): string | null {
  const [path, query] = url.split('?')
  if (path === '/books') return booksPage(Number(new URLSearchParams(query ?? '').get('page') ?? '1'))
  return LIST_PAGES[path ?? '/'] ?? null
}
