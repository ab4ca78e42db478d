import { z } from 'zod'
import type { Page } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import { LimitReached } from '#common/errors.ts'
import { describeTarget, type Target, type TargetAlternative } from '#common/targets.ts'
import { rankElements, type ElementWant } from '#server/browser/element-match.ts'
import { confirmTarget, snapshotPage, type PageSnapshot } from '#server/browser/page-snapshot.ts'
import { findRepeatedValues, repeatedValuesTarget } from '#server/browser/repeated-values.ts'
import type { StepRepair } from '#server/browser/step-actions.ts'
import type { StructuredAnswers } from '#server/features/ai/structured-answers.ts'
import type { ModelCalls } from '#server/features/credits/model-calls.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import { hideValues } from '#common/step-placeholders.ts'
import { hideSecrets } from './secrets.ts'
import { snapshotForModel } from './snapshot-prompt.ts'

/** How sure a match by similar words must be to stand in for a broken target (stricter than planning). */
const SIMILAR_THRESHOLD = 0.75
const REPAIR_ANSWER = { maxOutputTokens: 300, timeoutMs: 20_000 }

const WANT: Record<AutomationStep['type'], ElementWant> = {
  navigate: 'any',
  click: 'clickable',
  type: 'field',
  select: 'choice',
  press: 'any',
  wait: 'any',
  extract: 'readable',
  screenshot: 'any',
  assertText: 'readable',
  check: 'checkable',
  hover: 'clickable',
  doubleClick: 'clickable',
  clear: 'field',
  goBack: 'any',
  scroll: 'any',
  dialog: 'any',
  switchTab: 'any',
  assertChecked: 'checkable',
  assertCount: 'readable',
  if: 'readable',
  repeat: 'readable',
  forEach: 'readable',
  else: 'any',
  end: 'any',
  forEachRow: 'any',
  next: 'any',
  stop: 'any',
  script: 'any',
  download: 'clickable',
  upload: 'field',
  saveTable: 'any',
  readData: 'any',
  writeData: 'any',
  moveFile: 'any',
  copyFile: 'any',
  openFile: 'any',
  askPerson: 'any',
}

/** The words a target says its element by ('Sign in' of Button named “Sign in”), with the role it names. */
function wordsOf(alternative: TargetAlternative): { words: string; roles: string[] } | null {
  switch (alternative.by) {
    case 'role':
      return alternative.name ? { words: alternative.name, roles: [alternative.role] } : null
    case 'label':
    case 'placeholder':
    case 'text':
      return { words: alternative.text, roles: [] }
    case 'testId':
      return { words: alternative.id.replace(/[-_]+/g, ' '), roles: [] }
    case 'column':
      return { words: alternative.header, roles: ['columnheader'] }
    default:
      return null
  }
}

/** What a broken step does, said without any value it types or looks for (a value may be a secret). */
const WORDS: Record<AutomationStep['type'], string> = {
  navigate: 'Go to a page',
  click: 'Click',
  type: 'Type into',
  select: 'Choose an option in',
  press: 'Press a key in',
  wait: 'Wait for',
  extract: 'Read',
  screenshot: 'Take a screenshot of',
  assertText: 'Check the text of',
  check: 'Tick or untick',
  hover: 'Hover over',
  doubleClick: 'Double-click',
  clear: 'Clear',
  goBack: 'Go back from',
  scroll: 'Scroll to',
  dialog: 'Answer a dialog of',
  switchTab: 'Switch to a tab from',
  assertChecked: 'Check whether it is ticked:',
  assertCount: 'Count',
  if: 'Check whether the page shows',
  repeat: 'Check whether the page shows',
  forEach: 'Go through each of',
  else: 'Go on from',
  end: 'Go on from',
  forEachRow: 'Go on from',
  next: 'Go on from',
  stop: 'Go on from',
  script: 'Run a script on',
  download: 'Click to download',
  upload: 'Choose a file in',
  saveTable: 'Save a table from',
  readData: 'Read data for',
  writeData: 'Write data from',
  moveFile: 'Move a file for',
  copyFile: 'Copy a file for',
  openFile: 'Open a file for',
  askPerson: 'Ask a person about',
}

const repairAnswerSchema = z.object({
  ref: z.number().int().nullable().describe('The [number] of the element the step meant, or null if it is not on the page.'),
  reason: z.string().max(300).describe('One short sentence: why this element.'),
})

const REPAIR_SYSTEM = `A browser automation step could not find its element: the page changed. From the numbered list of the page's elements, choose the one the step meant (the same purpose, even if its words or place changed), or null when none fits. Never choose an element only because it is similar in look.`

/**
 * Self-repair of a run's broken step (docs/decisions/019, 020): when no way of a target finds its
 * element, look at the page now and find the element the target meant: first by similar words
 * (synonyms, changed wording; no model, every plan), then, when the automation allows self-repair,
 * an AI model is configured and the member's plan includes it, by asking the model (one paid
 * call). Whatever is found is kept only if it matches exactly one element.
 */
export function createRepairer(deps: {
  ai: StructuredAnswers
  modelCalls: Pick<ModelCalls, 'charge'>
  plans: Pick<PlanService, 'requireFeature'>
}) {
  const { ai, modelCalls, plans } = deps

  async function bySimilarWords(page: Page, snapshot: PageSnapshot, step: AutomationStep, target: Target): Promise<Target | null> {
    for (const alternative of target) {
      const said = wordsOf(alternative)
      if (!said) continue
      if (alternative.by === 'column') {
        // A column is found again by a header that says the same.
        const headers = snapshot.elements.filter((element) => element.role === 'columnheader')
        const [header] = rankElements(said.words, headers, 'readable')
        const words = header && header.score >= SIMILAR_THRESHOLD ? header.element.name || header.element.text : null
        if (words) return [{ by: 'column', header: words }]
        continue
      }
      const ranked = rankElements({ words: said.words, roles: said.roles, quoted: false }, snapshot.elements, WANT[step.type])
      for (const match of ranked.slice(0, 2)) {
        if (match.score < SIMILAR_THRESHOLD) break
        if (said.roles.length && match.element.role && !said.roles.includes(match.element.role)) continue
        const confirmed = await confirmTarget(page, match.element.target)
        if (confirmed) return confirmed
      }
    }
    return null
  }

  async function byModel(
    page: Page,
    snapshot: PageSnapshot,
    step: AutomationStep,
    target: Target,
    run: { id: string; workspaceId: string; userId: string | null; steps: AutomationStep[] },
    vaultValues: ReadonlyMap<string, string>,
  ): Promise<Target | null> {
    // Paid by the run's workspace; limited per minute for the member who started it.
    await modelCalls.charge({ workspaceId: run.workspaceId, memberId: run.userId }, 'repair', `run ${run.id}`)
    // What the run types never reaches the model, even where the page shows it back.
    const typed = new Map(
      run.steps.flatMap((each, index) =>
        each.type === 'type' && each.text.length >= 3 ? [[`{{typed ${index + 1}}}`, each.text] as const] : [],
      ),
    )
    const { value } = await ai.answer(
      {
        schema: repairAnswerSchema,
        name: 'repaired_element',
        system: REPAIR_SYSTEM,
        // Vault values the run typed (a user name the page shows back, a code) become their placeholders too.
        prompt: hideValues(
          hideSecrets(
            [
              `The step: ${WORDS[step.type]} ${describeTarget(target)}.`,
              `Every way the step had to find it: ${target.map((alternative) => JSON.stringify(alternative)).join('; ')}.`,
              snapshotForModel(snapshot),
              'Which element did the step mean?',
            ].join('\n\n'),
            typed,
          ),
          vaultValues,
        ),
      },
      REPAIR_ANSWER,
    )
    const element = value.ref === null ? null : snapshot.elements.find((candidate) => candidate.ref === value.ref)
    return element ? confirmTarget(page, element.target) : null
  }

  return {
    /** The repair function of one run (null when its automation turned self-repair off). */
    forRun(
      run: { id: string; workspaceId: string; userId: string | null; selfRepair: boolean; steps: AutomationStep[] },
      log: (message: string) => void,
      /** Vault values the run fills (value -> placeholder), hidden from the model (docs/decisions/025). */
      vaultValues: ReadonlyMap<string, string> = new Map(),
    ): StepRepair | null {
      if (!run.selfRepair) return null
      let modelRefused = false
      return async (page, step, target) => {
        const snapshot = await snapshotPage(page, { check: false })
        const similar = await bySimilarWords(page, snapshot, step, target)
        if (similar) return { target: similar, how: 'similar' }
        // Values to extract are known by what they are: the field says it ('prices', 'product').
        if (step.type === 'extract') {
          const repeated = await findRepeatedValues(page, step.field)
          if (repeated && !repeated.attribute === !step.attribute)
            return { target: await repeatedValuesTarget(page, repeated), how: 'similar' }
        }
        if (ai.kind === 'offline' || modelRefused) return null
        try {
          await plans.requireFeature(run.workspaceId, 'modelRepair')
          const repaired = await byModel(page, snapshot, step, target, run, vaultValues)
          return repaired ? { target: repaired, how: 'model' } : null
        } catch (error) {
          // Not in the plan, allowance used, provider down: the run goes on without the model (once said).
          modelRefused = true
          // The provider's own words (its address, its answer) are not the member's to read.
          log(
            error instanceof LimitReached
              ? error.message
              : 'The AI model could not repair the step: the AI provider did not answer as expected.',
          )
          return null
        }
      }
    },
  }
}

export type Repairer = ReturnType<typeof createRepairer>
