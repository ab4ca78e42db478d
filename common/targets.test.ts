import { describe, expect, it } from 'vitest'
import { automationStepSchema, parseSteps } from './automation-steps.ts'
import { describeAlternative, describeTarget, targetSchema, type TargetAlternative } from './targets.ts'
import { z } from './zod.ts'

describe('targets that say where the element sits (steps version 3)', () => {
  it('accept a container and a position on the ways by words', () => {
    const ways = [
      { by: 'role', role: 'checkbox', within: { kind: 'row', text: 'Pay the invoice' } },
      { by: 'role', role: 'button', name: 'Delete', within: { kind: 'card', text: 'Oak table', exact: true } },
      { by: 'role', role: 'link', nth: 2, within: { kind: 'section', text: 'Filters' } },
      { by: 'role', role: 'button', name: 'OK', within: { kind: 'dialog' } },
      { by: 'label', text: 'Quantity', within: { kind: 'item', text: 'Oak table' } },
      { by: 'text', text: '$', within: { kind: 'near', text: 'Total' } },
      { by: 'testId', id: 'price', nth: 3 },
      { by: 'placeholder', text: 'Note', within: { kind: 'form', text: 'Shipping' } },
    ]
    expect(targetSchema.safeParse(ways).success).toBe(true)
  })

  it('refuse containers they cannot use, with messages naming the field', () => {
    const step = (alternative: unknown) => parseSteps([{ type: 'click', target: [alternative] }])
    expect(step({ by: 'role', role: 'checkbox', within: { kind: 'row' } })).toEqual({
      ok: false,
      issues: [{ path: 'steps.0.target.0.within.text', message: 'Step 1 (click): element within text is required' }],
    })
    const wrongKind = step({ by: 'role', role: 'checkbox', within: { kind: 'table', text: 'x' } })
    expect(!wrongKind.ok && wrongKind.issues[0]?.message).toMatch(/must say what the element is in: kind row, item, card, dialog/)
    const long = step({ by: 'text', text: 'Delete', within: { kind: 'near', text: 'x'.repeat(201) } })
    expect(!long.ok && long.issues[0]?.message).toBe('Step 1 (click): element within text must be at most 200 characters')
    const zeroth = step({ by: 'role', role: 'link', nth: 0 })
    expect(!zeroth.ok && zeroth.issues[0]?.message).toBe('Step 1 (click): element nth counts from 1')
    const half = step({ by: 'role', role: 'link', nth: 1.5 })
    expect(!half.ok && half.issues[0]?.message).toBe('Step 1 (click): element nth must be a whole number')
  })

  it('keep version 2 steps exactly as they were', () => {
    const v2 = [
      {
        type: 'click',
        target: [
          { by: 'role', role: 'button', name: 'Sign in' },
          { by: 'css', selector: '#go' },
        ],
      },
      { type: 'type', target: [{ by: 'label', text: 'Email', exact: true }], text: 'ada@example.com' },
      { type: 'extract', target: [{ by: 'column', header: 'Price' }], field: 'price' },
    ]
    expect(parseSteps(v2)).toEqual({ ok: true, steps: v2 })
    // Version 1 still comes in as a CSS way.
    expect(parseSteps([{ type: 'click', selector: '#go' }])).toEqual({
      ok: true,
      steps: [{ type: 'click', target: [{ by: 'css', selector: '#go' }] }],
    })
  })

  it('appear in the JSON Schema', () => {
    const schema = JSON.stringify(z.toJSONSchema(z.array(automationStepSchema), { io: 'input' }))
    expect(schema).toContain('"within"')
    expect(schema).toContain('"nth"')
    expect(schema).toContain('"enum":["row","item","card","section","near"]')
  })
})

describe('targets in words', () => {
  const say = (alternative: TargetAlternative) => describeAlternative(alternative)

  it('say where the element sits and which one it is', () => {
    expect(say({ by: 'role', role: 'checkbox', within: { kind: 'row', text: 'Pay the invoice' } })).toBe(
      'Checkbox in the row “Pay the invoice”',
    )
    expect(say({ by: 'role', role: 'link', nth: 2, within: { kind: 'item', text: 'Tools' } })).toBe('2nd Link in the list item “Tools”')
    expect(say({ by: 'role', role: 'button', within: { kind: 'near', text: 'Pay the invoice' } })).toBe('Button next to “Pay the invoice”')
    expect(say({ by: 'role', role: 'button', name: 'Delete', within: { kind: 'card', text: 'Oak table' } })).toBe(
      'Button named “Delete” in the card “Oak table”',
    )
    expect(say({ by: 'role', role: 'link', nth: 3, within: { kind: 'section', text: 'Filters' } })).toBe(
      '3rd Link in the section under the heading “Filters”',
    )
    expect(say({ by: 'role', role: 'button', name: 'OK', within: { kind: 'dialog' } })).toBe('Button named “OK” in the dialog')
    expect(say({ by: 'testId', id: 'price', nth: 11 })).toBe('11th Test id “price”')
    expect(say({ by: 'text', text: 'Edit', nth: 22 })).toBe('22nd Text “Edit”')
  })

  it('never show CSS or XPath as written', () => {
    expect(say({ by: 'css', selector: '#main > ul > li:nth-of-type(3) > a' })).toBe('Link (found by the page’s structure)')
    expect(say({ by: 'css', selector: 'table > tbody > tr:nth-of-type(2)' })).toBe('2nd Row (found by the page’s structure)')
    expect(say({ by: 'css', selector: '#order-total' })).toBe('Element “order total” (found by the page’s structure)')
    expect(say({ by: 'css', selector: 'strong' })).toBe('Bold text (found by the page’s structure)')
    expect(say({ by: 'css', selector: '#pay >> internal:control=enter-frame >> button.primary' })).toBe(
      'Button (found by the page’s structure)',
    )
    expect(say({ by: 'css', selector: '#pay >> internal:control=enter-frame >> internal:role=button[name="Pay \\"now\\""i]' })).toBe(
      'Button named “Pay "now"” in a frame',
    )
    expect(say({ by: 'css', selector: '#pay >> internal:control=enter-frame >> internal:label="Card number"i' })).toBe(
      'Field labelled “Card number” in a frame',
    )
    expect(say({ by: 'css', selector: 'div[data-x="a > b"]' })).toBe('Element (found by the page’s structure)')
    expect(say({ by: 'xpath', path: '//ul/li[3]' })).toBe('3rd List item (found by the page’s structure)')
    expect(say({ by: 'xpath', path: "//button[@id='send-now']" })).toBe('Button “send now” (found by the page’s structure)')
    expect(describeTarget([{ by: 'css', selector: 'strong' }])).not.toContain('strong')
  })
})
