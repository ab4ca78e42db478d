import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { inWords, plannerPages } from '#server/testing/planner-pages.ts'

// Reading by meaning and confirming: 'read how much is due' reads the amount (no element says
// "how much"), 'read who it was sent to' the value after the label To:, 'its ingredients' the text
// under the heading of what was opened last (in its own column, not a sidebar beside it), 'the
// text of the Welcome note' its paragraph even when links sit in it; 'open A and B' opens each in
// turn; 'and confirm' clicks the page's own Confirm, else accepts the browser's confirm() before
// the click that opens it. Small pages drawn by script.

/**
 * Invoices: a list of links; the one opened shows its details as a definition list, its terms
 * written with a colon ("Amount due:") or without one ("Amount due").
 */
const invoices = (colon: string) => `<!doctype html><html><head><title>Invoices</title></head><body><main>
<h1>Invoices</h1>
<ul><li><a href="#/winter">Winter invoice</a></li><li><a href="#/spring">Spring invoice</a></li></ul>
<section id="invoice"></section>
<script>
  const INVOICES = {
    winter: ['Winter invoice', 'INV-0388', '12 December 2025', '118.00 EUR', '10 January 2026'],
    spring: ['Spring invoice', 'INV-0412', '2 March 2026', '64.20 EUR', '14 April 2026'],
  }
  addEventListener('hashchange', () => {
    const invoice = INVOICES[location.hash.slice(2)], section = document.getElementById('invoice')
    if (!invoice) return section.replaceChildren()
    const [title, ...values] = invoice
    section.innerHTML = '<h2></h2><dl><dt>Invoice number${colon}</dt><dd></dd><dt>Issued${colon}</dt><dd></dd>' +
      '<dt>Amount due${colon}</dt><dd></dd><dt>Pay by${colon}</dt><dd></dd></dl>'
    section.querySelector('h2').textContent = title
    values.forEach((text, at) => { section.querySelectorAll('dd')[at].textContent = text })
  })
</script></main></body></html>`

/** A message: its header as rows of a label box and a value box, From before To. */
const MESSAGE = `<!doctype html><html><head><title>Message</title>
<style>.row { display: flex; gap: 12px } .label { width: 60px; color: #555 }</style></head><body><main>
<h1>Minutes of Tuesday</h1>
<div class="row"><div class="label">From:</div><div>Ada Lovelace &lt;ada@engines.example&gt;</div></div>
<div class="row"><div class="label">To:</div><div>Grace Hopper &lt;grace@compilers.example&gt;</div></div>
<div class="row"><div class="label">Date:</div><div>3 June 2026</div></div>
<p>Grace, here are the minutes from the meeting. Please pass them on to the rest of the group.</p>
</main></body></html>`

/** Recipes in two columns: the recipe on the left, a sidebar of longer words beside its heading. */
const RECIPES = `<!doctype html><html><head><title>Kitchen notebook</title>
<style>
  .columns { display: grid; grid-template-columns: 520px 320px; gap: 40px; align-items: start }
  aside { padding-top: 24px }
</style></head><body>
<nav><a href="#/pancakes">Pancakes</a> <a href="#/flapjacks">Flapjacks</a></nav>
<div class="columns">
  <article id="recipe"><h2>Choose a recipe</h2></article>
  <aside><p id="about">This kitchen notebook keeps the family recipes we cook on weekday evenings, with notes on what went wrong and what we would change next time.</p></aside>
</div>
<script>
  const RECIPES = {
    pancakes: ['Pancakes', '200 g flour, 2 eggs, 300 ml milk and a pinch of salt'],
    flapjacks: ['Flapjacks', '250 g oats, 125 g butter and 125 g golden syrup'],
  }
  addEventListener('hashchange', () => {
    const [title, ingredients] = RECIPES[location.hash.slice(2)] ?? ['Choose a recipe', '']
    const article = document.getElementById('recipe')
    article.innerHTML = '<h2></h2><p>Serves four</p><p></p>'
    article.querySelector('h2').textContent = title
    article.querySelector('p:last-child').textContent = ingredients
  })
</script></body></html>`

/** Notes opened one above the other; the Welcome note's paragraph has links in it. */
const NOTEBOOK = `<!doctype html><html><head><title>Notebook</title></head><body><main>
<h1>Notebook</h1>
<div id="story">
  <article id="welcome"><h2>Welcome</h2><p><small>Edited on 3 May 2026</small></p>
  <p>This notebook keeps the <a href="#" data-note="packing">Packing list</a> and the <a href="#" data-note="reading">Reading list</a> for the summer trip to the islands.</p></article>
</div>
<ol id="opened"></ol>
<script>
  const NOTES = { packing: ['Packing list', 'Tent, stove, midge net'], reading: ['Reading list', 'Two novels and a bird guide'] }
  document.addEventListener('click', (event) => {
    const link = event.target.closest('a[data-note]')
    if (!link) return
    event.preventDefault()
    const [title, text] = NOTES[link.dataset.note], note = document.createElement('article')
    note.innerHTML = '<h2></h2><p></p>'
    note.querySelector('h2').textContent = title
    note.querySelector('p').textContent = text
    document.getElementById('story').prepend(note)
    const item = document.createElement('li'); item.textContent = title; document.getElementById('opened').append(item)
  })
</script></main></body></html>`

/** Delete all asks the browser's confirm() and deletes only when it is accepted. */
const ASKS_BROWSER = `<!doctype html><html><head><title>Drafts</title></head><body><main>
<h1>Drafts</h1>
<ul id="drafts"><li>Letter to the council</li><li>Birthday plans</li><li>Allotment rota</li></ul>
<button id="delete">Delete all</button> <p id="status">3 drafts</p>
<script>
  document.getElementById('delete').onclick = () => {
    if (!confirm('Delete all 3 drafts?')) return
    document.getElementById('drafts').replaceChildren()
    document.getElementById('status').textContent = 'No drafts'
  }
</script></main></body></html>`

/** Delete all opens a modal of the page's own; only its Confirm deletes. */
const ASKS_IN_PAGE = `<!doctype html><html><head><title>Drafts</title></head><body><main>
<h1>Drafts</h1>
<ul id="drafts"><li>Letter to the council</li><li>Birthday plans</li><li>Allotment rota</li></ul>
<button id="delete">Delete all</button> <p id="status">3 drafts</p>
<div id="modal" role="dialog" aria-label="Delete drafts" hidden>
  <p>Delete all 3 drafts? This cannot be undone.</p>
  <button id="cancel">Cancel</button> <button id="confirm">Confirm</button>
</div>
<script>
  const modal = document.getElementById('modal')
  document.getElementById('delete').onclick = () => { modal.hidden = false }
  document.getElementById('cancel').onclick = () => { modal.hidden = true }
  document.getElementById('confirm').onclick = () => {
    modal.hidden = true
    document.getElementById('drafts').replaceChildren()
    document.getElementById('status').textContent = 'No drafts'
  }
</script></main></body></html>`

/**
 * A notebook with tabs (role=tab, panels role=tabpanel): the open Notes tab lists notes whose
 * boxes say 'tagged' in their classes; the Tags tab lists the tags.
 */
const TABS = `<!doctype html><html><head><title>Notebook</title></head><body><main>
<h1>Notebook</h1>
<div class="tabs"><div role="tablist"><button role="tab" aria-selected="true" id="t-notes">Notes</button><button role="tab" aria-selected="false" id="t-tags">Tags</button></div>
<div role="tabpanel" id="p-notes"><div class="note tagged-trip">Packing list</div><div class="note tagged-trip">Reading list</div><div class="note tagged-food">Pancakes</div></div>
<div role="tabpanel" id="p-tags" hidden><p><span class="pill">Food</span></p><p><span class="pill">Trip</span></p><p><span class="pill">Books</span></p></div></div>
<script>
  for (const tab of document.querySelectorAll('[role=tab]')) tab.onclick = () => {
    for (const other of document.querySelectorAll('[role=tab]')) other.setAttribute('aria-selected', String(other === tab))
    document.getElementById('p-notes').hidden = tab.id !== 't-notes'
    document.getElementById('p-tags').hidden = tab.id !== 't-tags'
  }
</script></main></body></html>`

/** Two schemas, Book open and Loan closed, each a button that shows its table of properties. */
const SCHEMAS = `<!doctype html><html><head><title>Schemas</title></head><body><main>
<h1>Schemas</h1>
${['Book:title,author,year:true', 'Loan:book,member,due:false']
  .map((schema) => {
    const [name, properties, open] = schema.split(':') as [string, string, string]
    const rows = properties
      .split(',')
      .map((property) => `<tr class="property"><td>${property}</td><td>string</td></tr>`)
      .join('')
    return `<div class="schema"><button aria-expanded="${open}">${name}</button><table ${open === 'true' ? '' : 'hidden'}>${rows}</table></div>`
  })
  .join('')}
<script>
  for (const button of document.querySelectorAll('.schema button')) button.onclick = () => {
    const table = button.nextElementSibling
    table.hidden = !table.hidden
    button.setAttribute('aria-expanded', String(!table.hidden))
  }
</script></main></body></html>`

/**
 * A recipe with tag pills: spans (no role) that say whether they are open (aria-expanded) and open a
 * list of the notes so tagged beside them; the page lists other notes too.
 */
const TAGGED = `<!doctype html><html><head><title>Pancakes</title></head><body><main>
<h2>Pancakes</h2>
<div class="tags">${['Recipe:Flapjacks,Pancakes', 'Breakfast:Porridge,Pancakes']
  .map((tag) => {
    const [name, notes] = tag.split(':') as [string, string]
    const links = notes
      .split(',')
      .map((note) => `<div class="entry"><a href="#${note}">${note}</a></div>`)
      .join('')
    return `<span class="tag-item"><span class="tag-label" aria-expanded="false">${name}</span><span class="drop" hidden>${links}</span></span>`
  })
  .join(' ')}</div>
<p>200 g flour, 2 eggs, 300 ml milk.</p>
<ul class="recent"><li><a href="#Bothy">Bothy at Corrour</a></li><li><a href="#Packing">Packing list</a></li></ul>
<script>
  for (const label of document.querySelectorAll('.tag-label')) label.onclick = () => {
    const drop = label.nextElementSibling
    drop.hidden = !drop.hidden
    label.setAttribute('aria-expanded', String(!drop.hidden))
  }
</script></main></body></html>`

const PAGES: Record<string, string> = {
  '/tabs': TABS,
  '/tagged': TAGGED,
  '/schemas': SCHEMAS,
  '/invoices': invoices(':'),
  '/invoices-plain': invoices(''),
  '/message': MESSAGE,
  '/recipes': RECIPES,
  '/notebook': NOTEBOOK,
  '/drafts': ASKS_BROWSER,
  '/drafts-modal': ASKS_IN_PAGE,
}

/**
 * What the page shows: the drafts left, the notes opened (in order), and whether the recipe
 * sidebar's text sits beside the recipe's heading, starting below its top and longer than the
 * recipe's text (so only the column tells them apart; null on the other pages).
 */
interface Shown {
  drafts: number
  opened: string[]
  sidebarBeside: boolean | null
}

const pageState = (page: Page): Promise<Shown> =>
  page.evaluate(() => {
    const about = document.getElementById('about')
    const heading = document.querySelector('#recipe h2')
    const text = document.querySelector('#recipe p:last-child')?.textContent ?? ''
    const beside =
      about && heading
        ? about.getBoundingClientRect().top > heading.getBoundingClientRect().top &&
          about.getBoundingClientRect().left > heading.getBoundingClientRect().right &&
          (about.textContent ?? '').length > text.length
        : null
    return {
      drafts: document.querySelectorAll('#drafts li').length,
      opened: [...document.querySelectorAll('#opened li')].map((item) => item.textContent ?? ''),
      sidebarBeside: beside,
    }
  })

const pages = plannerPages(PAGES, pageState)
const { plan, run } = pages

const AMOUNT = '64.20 EUR'
const WELCOME = 'This notebook keeps the Packing list and the Reading list for the summer trip to the islands.'

describe('reading a value by what the question means', () => {
  it('opens the invoice and reads how much is due: the amount after its label, when planned and when run', async () => {
    const { draft } = await plan('Open the Spring invoice and read how much is due', `${pages.site}/invoices`)
    expect(draft.notes).toEqual([])
    const [opened, read, ...more] = draft.steps.slice(1)
    expect(more).toEqual([])
    expect(inWords(opened as AutomationStep)).toBe('Click Link named “Spring invoice”')
    // No element says "how much": the amount is read, not the label "Amount due:" nor the heading.
    expect(read).toMatchObject({ type: 'extract', field: 'how much is due' })
    expect(inWords(read as AutomationStep)).toBe(`Extract Text “${AMOUNT}” as “how much is due”`)
    expect(draft.tried.map((trial) => trial.problem)).toEqual([null, null, null])
    expect((await run(draft.steps)).extracted).toEqual({ 'how much is due': [AMOUNT] })
  })

  // A definition list's term without a colon ("Amount due") is a label: the amount after it is read.
  it('reads how much is due from a definition list whose terms have no colon', async () => {
    const { draft } = await plan('Open the Spring invoice and read how much is due', `${pages.site}/invoices-plain`)
    expect(draft.steps.slice(1).map((step) => step.type)).toEqual(['click', 'extract'])
    expect((await run(draft.steps)).extracted).toEqual({ 'how much is due': [AMOUNT] })
  })

  it('reads who it was sent to: the value after To:, not the one after From:', async () => {
    const { draft } = await plan('read who it was sent to', `${pages.site}/message`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(inWords)).toEqual(['Extract Text “Grace Hopper <grace@compilers.example>” as “who it was sent to”'])
    expect((await run(draft.steps)).extracted).toEqual({ 'who it was sent to': ['Grace Hopper <grace@compilers.example>'] })
  })

  it('plans no extract for words the page does not carry, and says so', async () => {
    const { draft } = await plan('read the colour of the sky', `${pages.site}/message`)
    expect(draft.steps).toEqual([{ type: 'navigate', url: `${pages.site}/message` }])
    expect(draft.steps.some((step) => step.type === 'extract')).toBe(false)
    expect(draft.notes).toHaveLength(1)
    expect(draft.notes[0]).toMatch(/^Could not find “colour of the sky”.*\(from “read the colour of the sky”\)/)
  })
})

describe("a thing's text", () => {
  it('copies out the ingredients of the recipe opened: the text under its heading, not the longer sidebar beside it', async () => {
    const { draft, shown } = await plan('Open Pancakes and copy out its ingredients', `${pages.site}/recipes`)
    // The page tells the two apart only by their column.
    expect(shown.sidebarBeside).toBe(true)
    expect(draft.notes).toEqual([])
    const [opened, read, ...more] = draft.steps.slice(1)
    expect(more).toEqual([])
    expect(inWords(opened as AutomationStep)).toBe('Click Link named “Pancakes”')
    expect(read).toMatchObject({ type: 'extract', field: 'ingredients' })
    expect((await run(draft.steps)).extracted).toEqual({ ingredients: ['200 g flour, 2 eggs, 300 ml milk and a pinch of salt'] })
  })

  it('reads the text of the Welcome note: its paragraph with the links in it, not the shorter line above', async () => {
    const { draft } = await plan('Read the text of the Welcome note', `${pages.site}/notebook`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map((step) => step.type)).toEqual(['extract'])
    expect((await run(draft.steps)).extracted).toEqual({ text: [WELCOME] })
  })

  it('opens each of the two links a sentence names together, in turn, when planned and when run', async () => {
    const { draft, shown } = await plan('Open the Reading list and the Packing list from the Welcome note', `${pages.site}/notebook`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(inWords)).toEqual(['Click Link named “Reading list”', 'Click Link named “Packing list”'])
    expect(shown.opened).toEqual(['Reading list', 'Packing list'])
    expect((await run(draft.steps)).shown.opened).toEqual(['Reading list', 'Packing list'])
  })
})

describe('a question answered in a tab', () => {
  it("asks first, opens the tab the sentence names, and reads 'them' there: the tags in the tab's panel", async () => {
    const { draft } = await plan('Which tags does this notebook use? Look in the Tags tab and read them', `${pages.site}/tabs`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map((step) => step.type)).toEqual(['click', 'extract'])
    expect(inWords(draft.steps[1] as AutomationStep)).toBe('Click Tab named “Tags”')
    expect((await run(draft.steps)).extracted).toEqual({ tags: ['Food', 'Trip', 'Books'] })
  })
})

describe('what a control opened', () => {
  it("reads 'its property names' in what the control clicked last opened, not in another part open beside it", async () => {
    const { draft } = await plan('Expand the Loan schema and get its property names', `${pages.site}/schemas`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map((step) => step.type)).toEqual(['click', 'extract'])
    expect((await run(draft.steps)).extracted).toEqual({ 'property names': ['book', 'member', 'due'] })
  })
})

describe('a tag that opens a list beside it', () => {
  it('clicks the pill (a span that says it opens) and reads the notes it shows, not the other lists on the page', async () => {
    const { draft } = await plan('Click its Recipe tag and list the recipes it shows', `${pages.site}/tagged`)
    expect(draft.notes).toEqual([])
    expect(inWords(draft.steps[1] as AutomationStep)).toMatch(/^Click Text “Recipe”/)
    expect((await run(draft.steps)).extracted).toEqual({ recipes: ['Flapjacks', 'Pancakes'] })
  })
})

describe('clicking and confirming', () => {
  it("accepts the browser's own confirmation, armed before the click that opens it", async () => {
    const { draft, shown } = await plan('Click Delete all and confirm', `${pages.site}/drafts`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(inWords)).toEqual(['Accept the next browser dialog', 'Click Button named “Delete all”'])
    expect(draft.steps[1]).toEqual({ type: 'dialog', action: 'accept' })
    // One trial per step, the armed answer's in its place (untried), the click's after it.
    expect(draft.tried.map((trial) => trial.problem)).toEqual([null, null, null])
    expect(draft.tried[1]?.picture).toBeNull()
    expect(draft.tried[2]?.picture).not.toBeNull()
    // While planning, the click came before the answer: the confirmation was dismissed, nothing deleted.
    expect(shown.drafts).toBe(3)
    // Run in order, the answer is there when the click asks: every draft is deleted.
    expect((await run(draft.steps)).shown.drafts).toBe(0)
  })

  it("clicks the page's own Confirm when the click opened a modal, and no browser dialog", async () => {
    const { draft, shown } = await plan('Click Delete all and confirm', `${pages.site}/drafts-modal`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(inWords)).toEqual(['Click Button named “Delete all”', 'Click Button named “Confirm”'])
    expect(shown.drafts).toBe(0)
    expect((await run(draft.steps)).shown.drafts).toBe(0)
  })
})
