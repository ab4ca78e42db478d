import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stepInWords } from '#common/step-words.ts'
import { withGuardedPage } from '#server/browser/guarded-page.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { createExplorer } from './explorer.ts'
import { readInstructions } from './instructions.ts'
import { planOffline } from './offline-planner.ts'

// 'Add a todo "Buy milk"': a new entry in a list, typed into the field that makes one and sent by
// the button beside it or by Enter. Two small pages drawn by script: a list sent by Enter (with a
// search box the entry must not go to) and notes sent by their own button.

const TODOS = `<!doctype html><html><head><title>Todos</title></head><body>
<input type="search" placeholder="Search">
<h1>todos</h1><input class="new-todo" placeholder="What needs to be done?" autofocus>
<ul class="todo-list"></ul><span class="count">0 items left</span>
<script>
  const input = document.querySelector('.new-todo'), list = document.querySelector('.todo-list')
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || !input.value.trim()) return
    const item = document.createElement('li'); item.textContent = input.value.trim(); list.append(item); input.value = ''
    document.querySelector('.count').textContent = list.children.length + ' items left'
  })
</script></body></html>`

const NOTES = `<!doctype html><html><head><title>Notes</title></head><body><main>
<label for="note">New note</label><textarea id="note"></textarea> <button id="add">Add note</button> <button>Delete all</button>
<ol id="notes"></ol></main>
<script>
  document.getElementById('add').onclick = () => {
    const li = document.createElement('li'); li.textContent = document.getElementById('note').value
    document.getElementById('notes').append(li); document.getElementById('note').value = ''
  }
</script></body></html>`

const TRY = `<!doctype html><html><head><title>Try</title></head><body><main>
<button id="try">Try it out</button> <div id="out"></div>
<div>city</div><div contenteditable="true" id="city">Arlington</div>
<nav><a href="#/">All</a> <a href="#/active">Active</a> <a href="#/done">Completed</a></nav><p id="view">all</p>
<script>
  document.getElementById('try').onclick = () => {
    const run = document.createElement('button'); run.textContent = 'Execute'
    run.onclick = () => { document.getElementById('out').textContent = 'Executed with ' + document.getElementById('city').textContent }
    document.getElementById('out').append(run)
  }
  addEventListener('hashchange', () => { document.getElementById('view').textContent = location.hash.slice(2) || 'all' })
</script></main></body></html>`

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let server: Server
let site = ''
beforeAll(async () => {
  server = createServer((request, response) => {
    const page = request.url === '/notes' ? NOTES : request.url === '/try' ? TRY : TODOS
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await browsers.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** A step in words without its count of fallbacks. */
const inWords = (step: Parameters<typeof stepInWords>[0]) => stepInWords(step).replace(/ \(\+\d+ fallbacks?\)$/, '')

const plan = (description: string, start: string) =>
  withGuardedPage(
    { browsers, privateTargets: 'loopback', stepTimeoutMs: 5_000 },
    ({ session, perform }) =>
      planOffline(readInstructions(description), createExplorer({ page: session.page, perform, deadline: Date.now() + 60_000 }), start),
    { timeLimitMs: 60_000 },
  )

describe('adding an entry to a list', () => {
  it('types it into the field that makes one and presses Enter there', async () => {
    const draft = await plan(
      'Add a todo "Buy milk" and then add "Walk the dog" to the list, then check that "2 items left" appears',
      `${site}/`,
    )
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(inWords)).toEqual([
      'Type “Buy milk” into Text field named “What needs to be done?”',
      'Press Enter in Text field named “What needs to be done?”',
      'Type “Walk the dog” into Text field named “What needs to be done?”',
      'Press Enter in Text field named “What needs to be done?”',
      'Check that the page shows “2 items left”',
    ])
    expect(draft.tried.map((trial) => trial.problem)).toEqual([null, null, null, null, null, null])
  })

  it('sends it with the button beside its field', async () => {
    const draft = await plan('create a new note called Call the bank', `${site}/notes`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(inWords)).toEqual([
      'Type “Call the bank” into Field labelled “New note”',
      'Click Button named “Add note”',
    ])
  })

  it('presses what a clause names when it names no action, changes a value shown, and switches a view', async () => {
    const draft = await plan(
      'Show only the active ones, change the city from Arlington to Leeds, try it out and execute it, then check that "Executed with Leeds" appears',
      `${site}/try`,
    )
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map((step) => step.type)).toEqual(['click', 'type', 'click', 'click', 'assertText'])
    expect(draft.tried.map((trial) => trial.problem)).toEqual([null, null, null, null, null, null])
  })
})
