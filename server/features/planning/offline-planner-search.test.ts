import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { inWords, plannerPages } from '#server/testing/planner-pages.ts'

// 'Search the notes for bothy and open the note it finds': the words typed into the page's search
// box (one with no name of its own too), sent only when the page did not answer while typing, by
// the box's own button when it says Search (never one that says "Advanced search"), else by Enter;
// then "the one it finds" is the result the search brought. Three small pages drawn by script: a
// search that answers as you type, one that answers when sent by its button, and one sent by Enter.

/**
 * Notes found as you type: an unnamed search box, an "advanced search" button, results drawn on
 * input; a recent note showing the same word sits before them (the one the search brought is opened, not it).
 */
const NOTES = `<!doctype html><html><head><title>Notebook</title></head><body><main>
<h1>Notebook</h1>
<input type="search"> <button id="advanced">advanced search</button>
<div id="panel" hidden>Advanced options: tags, dates</div>
<p>Recent: <a href="#/shopping">Shopping list</a> <a href="#/packing">Bothy packing list</a></p>
<ul id="results"></ul>
<article id="note"></article>
<script>
  const NOTES = { shopping: ['Shopping list', 'Milk, oats'], corrour: ['Bothy at Corrour', 'Corrour bothy sleeps eight; bring coal'], packing: ['Bothy packing list', 'Coal, candles'], kettle: ['Kettle repair', 'New element'] }
  const box = document.querySelector('input[type=search]'), results = document.getElementById('results')
  box.addEventListener('input', () => {
    results.replaceChildren()
    const words = box.value.trim().toLowerCase()
    if (!words) return
    for (const [id, [title]] of Object.entries(NOTES)) {
      if (!title.toLowerCase().includes(words)) continue
      const item = document.createElement('li'), link = document.createElement('a')
      link.href = '#/' + id; link.textContent = title; item.append(link); results.append(item)
    }
  })
  box.addEventListener('keydown', (event) => { if (event.key === 'Enter') document.title = 'Notebook (sent)' })
  document.getElementById('advanced').onclick = () => { document.getElementById('panel').hidden = false }
  addEventListener('hashchange', () => {
    const note = NOTES[location.hash.slice(2)]
    document.getElementById('note').textContent = note ? note[0] + ': ' + note[1] : ''
  })
</script></main></body></html>`

/** A shop whose search answers only when sent: a field named "Search" and its button "Search". */
const SHOP = `<!doctype html><html><head><title>Shop</title></head><body><main>
<form id="search" role="search"><input name="q" aria-label="Search"> <button>Search</button></form>
<a href="#/help">Help</a>
<ul id="results"></ul>
<p id="item"></p>
<script>
  const ITEMS = ['Rain jacket', 'Down jacket', 'Wool hat']
  document.getElementById('search').addEventListener('submit', (event) => {
    event.preventDefault()
    const words = document.querySelector('[name=q]').value.trim().toLowerCase(), results = document.getElementById('results')
    results.replaceChildren()
    for (const name of ITEMS.filter((item) => item.toLowerCase().includes(words))) {
      const item = document.createElement('li'), link = document.createElement('a')
      link.href = '#/' + name.toLowerCase().replace(/ /g, '-'); link.textContent = name; item.append(link); results.append(item)
    }
  })
  addEventListener('hashchange', () => { document.getElementById('item').textContent = 'Showing ' + location.hash.slice(2) })
</script></main></body></html>`

/** A search sent by Enter: the only button after its field only opens more options. */
const BOOTS = `<!doctype html><html><head><title>Boots</title></head><body><main>
<form id="search"><input type="search" aria-label="Search products"> <button type="button" id="advanced">Advanced search</button></form>
<div id="panel" hidden>Advanced options: size, colour</div>
<ul id="results"></ul>
<p id="item"></p>
<script>
  const ITEMS = ['Hill boots', 'Trail shoes', 'Winter boots']
  document.getElementById('search').addEventListener('submit', (event) => {
    event.preventDefault()
    const words = document.querySelector('input').value.trim().toLowerCase(), results = document.getElementById('results')
    results.replaceChildren()
    for (const name of ITEMS.filter((item) => item.toLowerCase().includes(words))) {
      const item = document.createElement('li'), link = document.createElement('a')
      link.href = '#/' + name.toLowerCase().replace(/ /g, '-'); link.textContent = name; item.append(link); results.append(item)
    }
  })
  document.getElementById('advanced').onclick = () => { document.getElementById('panel').hidden = false }
  addEventListener('hashchange', () => { document.getElementById('item').textContent = 'Showing ' + location.hash.slice(2) })
</script></main></body></html>`

/**
 * A mailbox whose rows show subjects only, filtered as you type by anything a mail holds (its sender
 * too); 'Delete all' asks for a second click (it arms itself, as MailDev's does), and 'Empty trash'
 * asks the browser's confirm.
 */
const MAIL = `<!doctype html><html><head><title>Mail</title></head><body><main>
<input placeholder="Search..." id="box"> <a href="#" id="all" title="Delete all emails">Delete all</a> <button id="trash">Empty trash</button>
<ul id="list"></ul>
<article id="note"></article>
<p id="state"></p>
<script>
  let MAILS = [['Engine notes', 'Ada Lovelace', 'Sent to team@example.com'], ['Wildwood is due back', 'Library', 'Return it by 9 April'], ['Compiler meeting', 'Grace Hopper', 'Room 4']]
  const box = document.getElementById('box'), list = document.getElementById('list')
  const draw = () => {
    list.replaceChildren()
    const words = box.value.trim().toLowerCase()
    MAILS.forEach(([subject, from], index) => {
      if (words && !(subject + ' ' + from).toLowerCase().includes(words)) return
      const item = document.createElement('li'), link = document.createElement('a')
      link.href = '#/' + index; link.textContent = subject; item.append(link); list.append(item)
    })
  }
  box.addEventListener('input', draw)
  draw()
  addEventListener('hashchange', () => { const mail = MAILS[location.hash.slice(2)]; document.getElementById('note').textContent = mail ? mail[0] + ': ' + mail[2] : '' })
  let armed = false
  document.getElementById('all').onclick = (event) => {
    event.preventDefault()
    if (!armed) { armed = true; setTimeout(() => { armed = false }, 2000); return }
    MAILS = []; draw(); document.getElementById('state').textContent = 'All deleted'
  }
  document.getElementById('trash').onclick = () => { document.getElementById('state').textContent = confirm('Empty the trash?') ? 'Trash emptied' : 'Trash kept' }
</script></main></body></html>`

const PAGES: Record<string, string> = { '/notes': NOTES, '/shop': SHOP, '/boots': BOOTS, '/mail': MAIL }

/** What the page shows once planning is done: its title, the opened note or item, and whether "advanced" options opened. */
interface Shown {
  title: string
  opened: string
  advanced: boolean
  /** The mailbox's own word on what was deleted. */
  state?: string
}

const pageState = (page: Page): Promise<Shown> =>
  page.evaluate(() => ({
    title: document.title,
    opened: document.getElementById('note')?.textContent ?? document.getElementById('item')?.textContent ?? '',
    advanced: document.getElementById('panel')?.hidden === false,
    ...(document.getElementById('state')?.textContent ? { state: document.getElementById('state')?.textContent } : {}),
  }))

const pages = plannerPages(PAGES, pageState)
const { plan } = pages
/** Runs the planned steps on a fresh page, as a run would, and says what the page shows then. */
const run = async (steps: AutomationStep[]) => (await pages.run(steps)).shown

const clicksOn = (steps: AutomationStep[], words: RegExp) => steps.filter((step) => step.type === 'click' && words.test(inWords(step)))

describe('searching a page and opening what it finds', () => {
  it('types into an unnamed search box that answers as you type, sends nothing, and opens the note it found', async () => {
    const { draft } = await plan('Search the notes for bothy and open the note it finds', `${pages.site}/notes`)
    expect(draft.notes).toEqual([])
    expect(draft.steps[0]).toEqual({ type: 'navigate', url: `${pages.site}/notes` })
    const [typed, opened, ...more] = draft.steps.slice(1).map(inWords)
    expect(more).toEqual([])
    // The box has no name: it is found as the page's search field (here by the heading beside it).
    expect(typed).toMatch(/^Type “bothy” into Search field\b/)
    expect(opened).toBe('Click Link named “Bothy at Corrour”')
    // The live search is not sent: no Enter, and never its "advanced search" button.
    expect(draft.steps.some((step) => step.type === 'press')).toBe(false)
    expect(clicksOn(draft.steps, /advanced/i)).toEqual([])
    expect(draft.steps[1]).toMatchObject({ type: 'type', text: 'bothy' })
  })

  it('sends a search that answers only when sent with its own Search button, then opens the first result', async () => {
    const { draft, shown } = await plan('search for jacket and open the first result', `${pages.site}/shop`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(inWords)).toEqual([
      'Type “jacket” into Text field named “Search”',
      'Click Button named “Search”',
      'Click Link named “Rain jacket”',
    ])
    expect(draft.tried.map((trial) => trial.problem)).toEqual([null, null, null, null])
    expect(shown.opened).toBe('Showing rain-jacket')
  })

  it('presses Enter in the field when the only button after it says "Advanced search"', async () => {
    const { draft, shown } = await plan('search for boots, then open the first result', `${pages.site}/boots`)
    // Sent by Enter in the field it typed into, never by the "Advanced search" button.
    expect(clicksOn(draft.steps, /advanced/i)).toEqual([])
    expect(draft.steps[2]).toMatchObject({ type: 'press', key: 'Enter' })
    expect(inWords(draft.steps[2] as AutomationStep)).toMatch(/^Press Enter in .*“Search products”/)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map((step) => step.type)).toEqual(['type', 'press', 'click'])
    expect(inWords(draft.steps[3] as AutomationStep)).toBe('Click Link named “Hill boots”')
    expect(shown).toMatchObject({ opened: 'Showing hill-boots', advanced: false })
  })

  it('reads what the search brought when asked which notes mention it: its results, not the same link shown before', async () => {
    const { draft } = await plan('Search the notes for bothy and tell me which notes mention it', `${pages.site}/notes`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map((step) => step.type)).toEqual(['type', 'extract'])
    // 'Bothy packing list' was a link under Recent before the search: in the results it is one of them, and Recent is not read.
    expect((await pages.run(draft.steps)).extracted).toEqual({ notes: ['Bothy at Corrour', 'Bothy packing list'] })
  })

  it('reaches the note it found, while planning and when the plan is run on a fresh page', async () => {
    const { draft, shown } = await plan('Search the notes for bothy and open the note it finds', `${pages.site}/notes`)
    expect(draft.tried.map((trial) => trial.problem)).toEqual([null, null, null])
    expect(shown).toEqual({ title: 'Notebook', opened: 'Bothy at Corrour: Corrour bothy sleeps eight; bring coal', advanced: false })
    expect(await run(draft.steps)).toEqual(shown)
  })
})

describe('a thing known by who sent it, and a control that asks to be clicked again', () => {
  it('searches for the sender the list does not show and opens the one mail it leaves', async () => {
    const { draft, shown } = await plan('Open the email from Ada Lovelace', `${pages.site}/mail`)
    expect(draft.notes).toEqual([])
    expect(draft.steps[1]).toMatchObject({ type: 'type', text: 'Ada Lovelace' })
    expect(inWords(draft.steps.at(-1) as AutomationStep)).toBe('Click Link named “Engine notes”')
    expect(shown.opened).toBe('Engine notes: Sent to team@example.com')
    expect((await run(draft.steps)).opened).toBe(shown.opened)
  })

  it("reads 'find the message from the library' as its sender searched for and the mail opened", async () => {
    const { draft } = await plan('Find the message from the library', `${pages.site}/mail`)
    expect(draft.steps[1]).toMatchObject({ type: 'type', text: 'library' })
    expect((await run(draft.steps)).opened).toBe('Wildwood is due back: Return it by 9 April')
  })

  it('only searches for the mails from someone (many things: none opened)', async () => {
    const { draft } = await plan('Find the emails from Grace Hopper', `${pages.site}/mail`)
    expect(draft.steps.slice(1).map((step) => step.type)).toEqual(['type', 'press'])
  })

  it("confirms 'Delete all' that opened no dialog by clicking it again, and a browser confirm by accepting it", async () => {
    const { draft } = await plan('Click Delete all and confirm', `${pages.site}/mail`)
    expect(draft.steps.slice(1).map(inWords)).toEqual(['Click Link named “Delete all”', 'Click Link named “Delete all”'])
    expect((await run(draft.steps)).state).toBe('All deleted')
    const trash = await plan('Click Empty trash and confirm', `${pages.site}/mail`)
    expect(trash.draft.steps.slice(1).map((step) => step.type)).toEqual(['dialog', 'click'])
    expect((await run(trash.draft.steps)).state).toBe('Trash emptied')
  })
})
