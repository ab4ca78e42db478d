import { describe, expect, it } from 'vitest'
import { parseSteps, STEP_TYPES } from '#common/automation-steps.ts'
import { exportDocument, exportFileName, issuesByStep, moved, newStep, readImport, withField, withWaitMode } from './step-drafts.ts'

describe('step drafts', () => {
  it('starts every type with its required fields empty, which parseSteps reports by step and field', () => {
    const result = parseSteps([newStep('navigate'), newStep('click'), newStep('wait'), newStep('screenshot')])
    expect(result.ok).toBe(false)
    if (result.ok) return
    const byStep = issuesByStep(result.issues)
    expect(byStep.get(0)?.[0]?.field).toBe('url')
    expect(byStep.get(1)).toEqual([{ field: 'target.0.name', message: 'Step 2 (click): element name is required' }])
    expect(byStep.has(2)).toBe(false)
    expect(byStep.has(3)).toBe(false)
    for (const type of STEP_TYPES) expect(newStep(type).type).toBe(type)
  })

  it('sets and removes fields, and switches a wait between time and element', () => {
    const step = withField(newStep('extract'), 'attribute', 'href')
    const target = [{ by: 'css', selector: '' }]
    expect(step).toEqual({ type: 'extract', target, field: '', attribute: 'href' })
    expect(withField(step, 'attribute', undefined)).toEqual({ type: 'extract', target, field: '' })
    expect(withWaitMode(newStep('wait'), 'target')).toEqual({ type: 'wait', target: [{ by: 'text', text: '' }] })
    expect(withWaitMode({ type: 'wait', target: [{ by: 'css', selector: '#done' }] }, 'ms')).toEqual({ type: 'wait', ms: 1000 })
  })

  it('moves an item, and leaves the list alone for a move off either end', () => {
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b'])
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c'])
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b'])
  })

  it('puts a step-level and a list-level issue under their own keys', () => {
    const byStep = issuesByStep([
      { path: 'steps', message: 'Steps must be a list of actions.' },
      { path: 'steps.4', message: 'Step 5 (wait): needs either ms or target, not both' },
    ])
    expect(byStep.get(-1)).toEqual([{ field: null, message: 'Steps must be a list of actions.' }])
    expect(byStep.get(4)).toEqual([{ field: null, message: 'Step 5 (wait): needs either ms or target, not both' }])
  })

  it('imports a list or an exported document, and refuses anything else with a reason', () => {
    const steps = [{ type: 'navigate', url: 'https://example.com/' }]
    expect(readImport(JSON.stringify(steps))).toEqual({ ok: true, steps })
    const document = exportDocument({ name: 'Check', description: '', schedule: null, steps: steps as never })
    expect(readImport(JSON.stringify(document))).toEqual({ ok: true, steps })
    expect(readImport('{oops')).toEqual({ ok: false, message: 'This is not valid JSON.' })
    expect(readImport('{"name":"x"}')).toEqual({ ok: false, message: 'Expected a list of steps, or an object with "steps".' })
    expect(readImport('[{"type":"jump"}]')).toMatchObject({ ok: false, message: expect.stringContaining('Step 1: type must be one of') })
    // A version-1 file (selectors) comes in as version 2 (targets).
    expect(readImport('[{"type":"click","selector":"#go"}]')).toEqual({
      ok: true,
      steps: [{ type: 'click', target: [{ by: 'css', selector: '#go' }] }],
    })
  })

  it('names the exported file after the automation', () => {
    expect(exportFileName('Fill the form!')).toBe('fill-the-form.automation.json')
    expect(exportFileName('***')).toBe('automation.automation.json')
  })
})
