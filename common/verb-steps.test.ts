import { describe, expect, it } from 'vitest'
import { parseSteps } from './automation-steps.ts'
import { describeStep } from './step-log-words.ts'
import { stepInWords } from './step-words.ts'

const box = [{ by: 'label', text: 'Remember me' }]

describe('the verb steps', () => {
  it('parse, with a check ticking unless told otherwise', () => {
    const parsed = parseSteps([
      { type: 'check', target: box },
      { type: 'check', target: box, checked: false },
      { type: 'hover', target: box },
      { type: 'doubleClick', target: box },
      { type: 'clear', target: box },
      { type: 'goBack' },
      { type: 'scroll' },
      { type: 'scroll', target: box, maxScrolls: 5 },
      { type: 'dialog', action: 'dismiss' },
      { type: 'dialog', action: 'accept', text: 'Q3' },
      { type: 'switchTab' },
      { type: 'assertChecked', target: box },
      { type: 'assertCount', target: box, count: 0 },
      { type: 'wait', target: box, gone: true },
      { type: 'assertText', text: 'Error', absent: true },
    ])
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    expect(parsed.steps[0]).toEqual({ type: 'check', target: box, checked: true })
    expect(parsed.steps[11]).toEqual({ type: 'assertChecked', target: box, checked: true })
  })

  it('name the step and the field of each problem', () => {
    const parsed = parseSteps([
      { type: 'check', target: box, checked: 'yes' },
      { type: 'dialog', action: 'ok' },
      { type: 'assertCount', target: box },
      { type: 'assertCount', target: box, count: 1.5 },
      { type: 'scroll', maxScrolls: 500 },
      { type: 'wait', ms: 100, gone: true },
      { type: 'hover' },
      { type: 'teleport' },
    ])
    expect(parsed.ok ? [] : parsed.issues.map((issue) => issue.message)).toEqual([
      'Step 1 (check): checked must be true or false',
      'Step 2 (dialog): action must be one of accept, dismiss',
      'Step 3 (assertCount): count must be a number',
      'Step 4 (assertCount): count must be a whole number',
      'Step 5 (scroll): maxScrolls must be at most 50',
      'Step 6 (wait): waits until an element is gone only with a target',
      'Step 7 (hover): element is required',
      expect.stringMatching(
        /^Step 8: type must be one of navigate, click, .*, switchTab, assertChecked, assertCount, if, else, end, repeat, forEach, forEachRow, next, stop, script, download, upload, saveTable, readData, writeData, moveFile, copyFile, openFile, askPerson$/,
      ),
    ])
  })

  it('read as sentences and log lines', () => {
    const parsed = parseSteps([
      { type: 'check', target: box, checked: false },
      { type: 'wait', target: box, gone: true },
      { type: 'assertText', text: 'Error', absent: true },
      { type: 'dialog', action: 'accept' },
      { type: 'assertCount', target: [{ by: 'css', selector: '.row' }], count: 3 },
    ])
    if (!parsed.ok) throw new Error('did not parse')
    expect(parsed.steps.map(stepInWords)).toEqual([
      'Untick Field labelled “Remember me”',
      'Wait until Field labelled “Remember me” is gone',
      'Check that the page does not show “Error”',
      'Accept the next browser dialog',
      'Check that there are 3 × Element (found by the page’s structure)',
    ])
    expect(parsed.steps.map(describeStep)).toEqual([
      'Field labelled “Remember me” unchecked',
      'Field labelled “Remember me” to go',
      'no "Error" on the page',
      'accept the next dialog',
      '3 × Element (found by the page’s structure)',
    ])
  })
})
