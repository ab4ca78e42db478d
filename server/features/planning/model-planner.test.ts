import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { describeAlternative } from '#common/targets.ts'
import { withGuardedPage } from '#server/browser/guarded-page.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { createStructuredAnswers } from '#server/features/ai/structured-answers.ts'
import { startFakeChatCompletions, type FakeChatCompletions } from '#server/testing/fake-chat-completions.ts'
import { ACCOUNT, startPracticeSites, type PracticeSites } from '#server/testing/practice-sites.ts'
import { promptOf, scriptedPlanner } from '#server/testing/scripted-model.ts'
import { createExplorer } from './explorer.ts'
import { MODEL_PLANNING_LIMITS, planWithModel } from './model-planner.ts'

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let sites: PracticeSites
let model: FakeChatCompletions

beforeAll(async () => {
  sites = await startPracticeSites()
  model = await startFakeChatCompletions()
})
afterAll(async () => {
  await browsers.close()
  await sites?.close()
  await model?.close()
})
beforeEach(() => {
  model.requests.length = 0
})

async function plan(description: string, start: string) {
  let paid = 0
  const ai = createStructuredAnswers({ baseUrl: model.baseUrl, model: 'planner-test' })
  const draft = await withGuardedPage(
    { browsers, privateTargets: 'loopback', stepTimeoutMs: 5_000 },
    async ({ session, perform }) =>
      planWithModel({
        description,
        start,
        explorer: createExplorer({ page: session.page, perform, deadline: Date.now() + 60_000 }),
        ai,
        pay: async () => {
          paid += 1
        },
      }),
    { timeLimitMs: 60_000 },
  )
  return { ...draft, paid }
}

describe('planning with the AI model', () => {
  it('explores step by step, keeps each element as a checked target in words, and pays every question', async () => {
    model.respondWith({
      reply: scriptedPlanner([
        { type: 'type', element: 'Email', role: 'textbox', text: ACCOUNT.email },
        { type: 'type', element: 'Password', text: '{{secret 1}}' },
        { type: 'click', element: 'Sign in', role: 'button' },
        { type: 'assertText', text: 'Welcome back' },
      ]),
    })
    const draft = await plan(
      `Sign in with ${ACCOUNT.email} and password ${ACCOUNT.password}, then check the welcome`,
      `${sites.url}/original/signin`,
    )
    expect(draft.notes).toEqual([])
    expect(draft.steps.map((step) => step.type)).toEqual(['navigate', 'type', 'type', 'click', 'assertText'])
    const targets = draft.steps.flatMap((step) => ('target' in step && step.target ? [describeAlternative(step.target[0] as never)] : []))
    expect(targets).toEqual(['Field labelled “Email”', 'Field labelled “Password”', 'Button named “Sign in”'])
    // The secret was a placeholder to the model and came back as the value in the step.
    expect(draft.steps[2]).toMatchObject({ type: 'type', text: ACCOUNT.password })
    expect(model.requests.every((request) => !JSON.stringify(request.body).includes(ACCOUNT.password))).toBe(true)
    expect(promptOf(model.requests[0] as never)).toContain('{{secret 1}}')
    // Structured output: the request carried the decision's JSON Schema.
    expect(model.requests[0]?.body.response_format?.type).toBe('json_schema')
    // Five questions: four steps and the one that said done; each was paid before it was asked.
    expect(draft.turns).toBe(5)
    expect(draft.paid).toBe(5)
  })

  it('keeps a condition the task says as an if block around a skip, untried, where the model puts it', async () => {
    model.respondWith({
      reply: scriptedPlanner([
        { type: 'guard', text: 'Out of stock', then: 'skip' },
        { type: 'click', element: 'Next page' },
      ]),
    })
    const draft = await plan('If a product says "Out of stock", skip it; otherwise go to the next page', `${sites.url}/original/products`)
    expect(draft.steps.map((step) => step.type)).toEqual(['navigate', 'if', 'next', 'end', 'click'])
    expect(draft.steps[1]).toEqual({ type: 'if', when: 'textShown', text: 'Out of stock' })
    expect(promptOf(model.requests[1] as never)).toContain('guard {"when":"textShown","text":"Out of stock","then":"skip"}')
  })

  it('keeps the actions the task says under a condition in an if block (its else too), tried, and ends what the model leaves open', async () => {
    model.respondWith({
      reply: scriptedPlanner([
        { type: 'end' },
        { type: 'if', text: 'Products' },
        { type: 'click', element: 'Next page' },
        { type: 'else' },
        { type: 'screenshot' },
        { type: 'else' },
        { type: 'end' },
        { type: 'if', text: 'Sold out', not: true },
        { type: 'assertText', text: 'Name' },
      ]),
    })
    const draft = await plan(
      'If the page says "Products", go to the next page, else take a screenshot. Unless it says "Sold out", check it shows "Name"',
      `${sites.url}/original/products`,
    )
    expect(draft.steps).toEqual([
      { type: 'navigate', url: `${sites.url}/original/products` },
      { type: 'if', when: 'textShown', text: 'Products' },
      { type: 'click', target: expect.any(Array) },
      { type: 'else' },
      { type: 'screenshot' },
      { type: 'end' },
      { type: 'if', when: 'textNotShown', text: 'Sold out' },
      { type: 'assertText', text: 'Name' },
      { type: 'end' },
    ])
    // The click inside the if was tried, and the model told of each answer it could not use.
    expect(promptOf(model.requests[1] as never)).toContain('there is no open if block to end')
    expect(promptOf(model.requests[6] as never)).toContain('this if block has its else already')
    expect(promptOf(model.requests[3] as never)).toContain('3. click')
  })

  it('turns "every element like this" into a table column, and refuses an element that is not on the page', async () => {
    model.respondWith({
      reply: scriptedPlanner([
        { type: 'click', element: 'Launch the rocket' },
        { type: 'extract', element: 'Rain Jacket', field: 'product', all: true },
      ]),
    })
    const draft = await plan('Collect every product name', `${sites.url}/original/products`)
    expect(draft.steps.slice(1)).toEqual([{ type: 'extract', target: [{ by: 'column', header: 'Name' }], field: 'product' }])
    // The refused answer was explained to the model in the next question.
    expect(promptOf(model.requests[1] as never)).toContain('Your last answer could not be used')
  })

  it('shows the model no address query and types secrets only on the site the task starts on', async () => {
    const elsewhere = await startPracticeSites()
    try {
      model.respondWith({
        reply: scriptedPlanner([
          { type: 'navigate', url: `${elsewhere.url}/original/signin` },
          { type: 'type', element: 'Password', text: '{{secret 1}}' },
        ]),
      })
      const draft = await plan(`Log in with password ${ACCOUNT.password}`, `${sites.url}/original/signin?token=query-secret-123`)
      expect(model.requests.every((request) => !JSON.stringify(request.body).includes('query-secret-123'))).toBe(true)
      // The other site's page was visited, but the secret was not typed there.
      expect(draft.steps.map((step) => step.type)).toEqual(['navigate', 'navigate'])
      expect(promptOf(model.requests[2] as never)).toContain('secrets are typed only on the site the task starts on')
      expect(model.requests.every((request) => !JSON.stringify(request.body).includes(ACCOUNT.password))).toBe(true)
    } finally {
      await elsewhere.close()
    }
  })

  it('stops at its bounds and says so', async () => {
    model.respondWith({
      reply: () => ({
        thought: 'waiting',
        done: false,
        step: { type: 'screenshot', ref: null, url: null, text: null, key: null, ms: null, field: null, all: null },
      }),
    })
    const draft = await plan('Keep taking screenshots', `${sites.url}/original/products`)
    expect(draft.turns).toBe(MODEL_PLANNING_LIMITS.turns)
    expect(draft.notes.at(-1)).toMatch(/stopped after 15 questions/)
  })
})
