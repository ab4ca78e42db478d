import { describe, expect, it } from 'vitest'
import { checkTemplateSteps, filledSteps, fillSteps, previewSteps, resolveInputs } from './template-steps.ts'
import { templateInputSchema, type TemplateInput } from './templates.ts'

const input = (fields: Partial<TemplateInput> & { name: string }): TemplateInput =>
  templateInputSchema.parse({ label: fields.name, example: 'example', ...fields })

const INPUTS = [
  input({ name: 'start_url', label: 'Start page', example: 'https://shop.example.com/' }),
  input({ name: 'search_term', label: 'Search for', example: 'rain jacket' }),
  input({ name: 'note', label: 'Note', example: 'hello', required: false, defaultValue: 'none' }),
]
const STEPS = [
  { type: 'navigate', url: '{{start_url}}' },
  { type: 'type', target: [{ by: 'role', role: 'searchbox', name: 'Search' }], text: 'Find {{search_term}} ({{note}})' },
  { type: 'press', key: 'Enter' },
]

describe('checkTemplateSteps', () => {
  it('accepts steps whose placeholders are declared inputs, checked with the examples, and keeps the placeholders', () => {
    const checked = checkTemplateSteps(STEPS, INPUTS)
    expect(checked).toEqual({ ok: true, steps: STEPS })
  })

  it('upgrades version-1 steps, trims text and drops what the schema does not know', () => {
    const checked = checkTemplateSteps(
      [
        { type: 'click', selector: '#go', junk: { deep: [1] } },
        { type: 'navigate', url: '  {{start_url}} ' },
      ],
      [INPUTS[0] as TemplateInput],
    )
    expect(checked).toEqual({
      ok: true,
      steps: [
        { type: 'click', target: [{ by: 'css', selector: '#go' }] },
        { type: 'navigate', url: '{{start_url}}' },
      ],
    })
  })

  it('names an undeclared placeholder, an unused input, a malformed one and one standing in for a fixed field', () => {
    const undeclared = checkTemplateSteps([{ type: 'navigate', url: '{{site}}' }], [])
    expect(undeclared.ok ? [] : undeclared.issues.map((issue) => issue.message)).toEqual([
      "Step 1 (navigate): {{site}} is not one of the template's inputs",
    ])
    const unused = checkTemplateSteps([{ type: 'navigate', url: 'https://example.com/' }], [INPUTS[1] as TemplateInput])
    expect(unused.ok ? [] : unused.issues).toEqual([{ path: 'inputs.0.name', message: 'The input search_term is not used by any step' }])
    const malformed = checkTemplateSteps([{ type: 'assertText', text: 'Hello {{ Name }}' }], [])
    expect(malformed.ok ? [] : malformed.issues[0]?.message).toMatch(/write an input as \{\{name\}\}/)
    const fixed = checkTemplateSteps([{ type: 'click', target: [{ by: 'role', role: '{{search_term}}' }] }], [INPUTS[1] as TemplateInput])
    expect(fixed.ok ? [] : fixed.issues[0]).toEqual({
      path: 'steps.0.target.0.role',
      message: 'Step 1 (click): an input cannot stand in for role',
    })
  })

  it('refuses steps the examples do not make valid, naming the input behind the field', () => {
    const bad = checkTemplateSteps([{ type: 'navigate', url: '{{search_term}}' }], [INPUTS[1] as TemplateInput])
    expect(bad.ok ? null : bad.issues[0]).toEqual({
      path: 'steps.0.url',
      message: 'With the examples, Step 1 (navigate): url must be an http or https address: check “Search for” (search_term)',
    })
  })

  it('does not walk deeper than a step can be (a deeply nested body is refused, not a stack overflow)', () => {
    let deep: unknown = '{{x}}'
    for (let level = 0; level < 100_000; level++) deep = [deep]
    const checked = checkTemplateSteps([{ type: 'screenshot', extra: deep }], [])
    expect(checked).toEqual({ ok: true, steps: [{ type: 'screenshot' }] })
  })
})

describe('resolveInputs and filledSteps', () => {
  it('fills the values in one pass, optional blank inputs with their default', () => {
    const resolved = resolveInputs(INPUTS, { start_url: ' https://a.example/ ', search_term: 'boots' })
    expect(resolved.ok && Object.fromEntries(resolved.values)).toEqual({
      start_url: 'https://a.example/',
      search_term: 'boots',
      note: 'none',
    })
    const filled = resolved.ok ? filledSteps(STEPS, INPUTS, resolved.values) : null
    expect(filled).toEqual({
      ok: true,
      steps: [
        { type: 'navigate', url: 'https://a.example/' },
        { type: 'type', target: [{ by: 'role', role: 'searchbox', name: 'Search' }], text: 'Find boots (none)' },
        { type: 'press', key: 'Enter' },
      ],
    })
  })

  it('a required input left blank takes its default when it has one', () => {
    const withDefault = [input({ name: 'greeting', label: 'Greeting', example: 'Hi', defaultValue: 'Hello' })]
    expect(resolveInputs(withDefault, {})).toEqual({ ok: true, values: new Map([['greeting', 'Hello']]) })
    expect(resolveInputs(withDefault, { greeting: 'Hey' })).toEqual({ ok: true, values: new Map([['greeting', 'Hey']]) })
  })

  it('names a missing required input, an unknown one and an over-long value', () => {
    expect(resolveInputs(INPUTS, { start_url: 'https://a.example/', search_term: '  ' })).toEqual({
      ok: false,
      issue: { path: 'inputs.search_term', message: 'Search for (search_term) is required.' },
    })
    expect(resolveInputs(INPUTS, { start_url: 'https://a.example/', search_term: 'x', other: 'y' })).toMatchObject({
      ok: false,
      issue: { path: 'inputs.other' },
    })
    expect(resolveInputs(INPUTS, { start_url: 'https://a.example/', search_term: 'x'.repeat(501) })).toMatchObject({
      ok: false,
      issue: { path: 'inputs.search_term', message: 'Search for (search_term) is at most 500 characters.' },
    })
    expect(resolveInputs(INPUTS, JSON.parse('{"__proto__": "x", "start_url": "https://a.example/", "search_term": "x"}'))).toMatchObject({
      ok: false,
      issue: { path: 'inputs.__proto__' },
    })
  })

  it('keeps a value that looks like a placeholder as text, and never lets a value change a step type or a key', () => {
    const values = new Map([
      ['start_url', 'https://a.example/'],
      ['search_term', '{{note}}'],
      ['note', '"}], "type": "navigate'],
    ])
    expect(fillSteps(STEPS, values)[1]).toEqual({
      type: 'type',
      target: [{ by: 'role', role: 'searchbox', name: 'Search' }],
      text: 'Find {{note}} ("}], "type": "navigate)',
    })
    expect(fillSteps([{ type: '{{note}}' }], values)).toEqual([{ type: '{{note}}' }])
  })

  it('a value that makes a step invalid is refused naming the input', () => {
    const filled = filledSteps(
      STEPS,
      INPUTS,
      new Map([
        ['start_url', 'javascript:alert(1)'],
        ['search_term', 'x'],
        ['note', ''],
      ]),
    )
    expect(filled.ok ? null : filled.issues[0]?.message).toBe(
      'Step 1 (navigate): url must be an http or https address: check “Start page” (start_url)',
    )
  })
})

describe('previewSteps', () => {
  it('describes the steps with the values given, or the defaults and examples', () => {
    expect(previewSteps(STEPS, INPUTS)).toEqual([
      'Go to https://shop.example.com/',
      'Type “Find rain jacket (none)” into Search field named “Search”',
      'Press Enter',
    ])
    expect(previewSteps(STEPS, INPUTS, { search_term: 'boots' })[1]).toBe('Type “Find boots (none)” into Search field named “Search”')
    // Values that do not make valid steps yet (a half-typed address): the examples.
    expect(previewSteps(STEPS, INPUTS, { start_url: 'htt' })[0]).toBe('Go to https://shop.example.com/')
  })
})
