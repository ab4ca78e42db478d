import type { Caller } from '#common/auth.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import { parseSteps, type AutomationStep } from '#common/automation-steps.ts'
import { AppError, LimitReached, RateLimited, ServiceUnavailable, ValidationError } from '#common/errors.ts'
import { MAX_PLAN_STEPS, type InspectInput, type PlanInput } from '#common/planning.ts'
import {
  ExplorationStopped,
  ExploreFailure,
  refusedAddress,
  withGuardedPage,
  type GuardedPageOptions,
} from '#server/browser/guarded-page.ts'
import { cleanMessage } from '#server/browser/step-actions.ts'
import { BrowserUnavailableError } from '#server/browser/shared-browser.ts'
import type { StructuredAnswers } from '#server/features/ai/structured-answers.ts'
import type { ModelCalls } from '#server/features/credits/model-calls.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import { createExplorer } from './explorer.ts'
import { createExplorationGate, type GateLimits } from './exploration-gate.ts'
import { createInspector, INSPECTION_LIMITS, type Inspection, type InspectionLimits } from './inspector.ts'
import { readInstructions } from './instructions.ts'
import { ROWS_BLOCK, rowsLead } from './rows-lead.ts'
import { skipsOutsideLoops } from './condition-clause.ts'

const BLOCK_STARTS: ReadonlySet<string> = new Set(['if', 'repeat', 'forEach', 'forEachRow'])
import { planWithModel } from './model-planner.ts'
import { planOffline, type DraftPlan, type StepTrial } from './offline-planner.ts'
import { inPlanningOrder } from './plan-order.ts'
import { maskSecrets } from './secrets.ts'

/** What one plan may take: its whole time, exploring included (the model's questions too), and when its page is closed. */
export interface PlanLimits {
  timeLimitMs: number
  /** The planners stop looking at `timeLimitMs`; the page is closed under them this much later. */
  closeMs: number
}
export const PLAN_LIMITS: PlanLimits = { timeLimitMs: 90_000, closeMs: 10_000 }

/**
 * The cloud browser's places for explorations, and what one inspection and one plan may take
 * (docs/decisions/038 and its amendment). The longest hold is a plan's, and a request waits longer
 * than that.
 */
export interface ExplorationLimits extends Omit<GateLimits, 'maxHoldMs'> {
  inspection: InspectionLimits
  plan: PlanLimits
}
export const EXPLORATION_LIMITS: ExplorationLimits = {
  capacity: 3,
  maxWaitMs: 110_000,
  maxWaitingPerWorkspace: 3,
  recentUseHalfLifeMs: 5 * 60_000,
  inspection: INSPECTION_LIMITS,
  plan: PLAN_LIMITS,
}

/** The longest one exploration holds a place: an inspection's time, or a plan's until its page is closed. */
export const longestHold = (limits: Pick<ExplorationLimits, 'inspection' | 'plan'>) =>
  Math.max(limits.inspection.timeLimitMs, limits.plan.timeLimitMs + limits.plan.closeMs)

const INSPECT_LIMIT = { limit: 30, windowSeconds: 600, message: 'At most 30 page inspections in 10 minutes; try again shortly.' }
const PLAN_LIMIT = { limit: 20, windowSeconds: 600, message: 'At most 20 plans in 10 minutes; try again shortly.' }

export interface PlanResult extends DraftPlan {
  planner: 'offline' | 'model'
  /** Paid model calls this plan made. */
  modelCalls: number
}

/**
 * Inspecting pages and planning from a sentence (docs/decisions/020): both explore the member's
 * site in a guarded page of the cloud browser (the target guard of cloud runs), bounded in time,
 * shared fairly between workspaces (docs/decisions/038: each its plan's share at once, the others
 * waiting their turn), and rate limited per member. Planning uses the AI model when one is
 * configured and the member's plan includes it (each question paid through the ledger), and the
 * offline planner otherwise, saying so in a note.
 */
export function createPlanningService(deps: {
  page: GuardedPageOptions
  ai: StructuredAnswers
  modelCalls: Pick<ModelCalls, 'charge'>
  plans: Pick<PlanService, 'requireFeature' | 'allowancesOf'>
  rateLimits: Pick<RateLimitService, 'consume'>
  limits?: Partial<ExplorationLimits>
}) {
  const { ai, modelCalls, plans, rateLimits } = deps
  const limits = { ...EXPLORATION_LIMITS, ...deps.limits }
  const inspector = createInspector(deps.page, limits.inspection)
  // A planner's page loads and steps wait no longer than an inspection's.
  const planPage = { ...deps.page, stepTimeoutMs: Math.min(deps.page.stepTimeoutMs, limits.inspection.stepTimeoutMs) }
  const gate = createExplorationGate({ ...limits, maxHoldMs: longestHold(limits) })

  /**
   * Runs one exploration of the caller's workspace once the gate gives it a place (its plan's
   * cloud concurrency is its share; a plan at no price makes it a Free workspace); what stops one
   * becomes an answer.
   */
  async function exploring<T>(
    caller: Pick<Caller, 'emailVerified' | 'workspace'>,
    work: () => Promise<T>,
    limitMs: number,
    holdMs: number,
    signal?: AbortSignal,
  ): Promise<T> {
    const { cloudConcurrency, price } = await plans.allowancesOf(caller.workspace.id)
    const release = await gate.enter(
      { workspaceId: caller.workspace.id, share: cloudConcurrency, free: price === 0, verified: caller.emailVerified, holdMs },
      signal,
    )
    try {
      return await work()
    } catch (error) {
      if (error instanceof BrowserUnavailableError) throw new ServiceUnavailable(`The cloud browser is not available: ${error.message}.`)
      if (error instanceof ExplorationStopped) {
        throw new ServiceUnavailable(`The page did not finish within ${limitMs / 1000} s; try again, or start from another page.`)
      }
      if (error instanceof AppError) throw error
      // The browser could not read the page (it crashed, it changed under us): an answer, not a broken builder.
      throw new ServiceUnavailable(`The cloud browser could not read the page (${cleanMessage(error)}); try again.`)
    } finally {
      release()
    }
  }

  /** Inspecting and planning are building: they use the cloud browser and the workspace's credits. */
  const requireBuilder = (caller: Pick<Caller, 'workspace'>) =>
    requireWorkspaceRole(caller.workspace.role, 'member', 'Inspecting pages and planning automations')

  function checkedSteps(raw: unknown[]): AutomationStep[] {
    const parsed = parseSteps(raw)
    if (!parsed.ok) throw new ValidationError(parsed.issues[0]?.message ?? 'Invalid steps', parsed.issues)
    return parsed.steps
  }

  /** Which planner answers, and why not the model when it is not (a note for the member). */
  async function choosePlanner(
    workspaceId: string,
    choice: PlanInput['planner'],
  ): Promise<{ planner: 'offline' | 'model'; why: string | null }> {
    if (choice === 'offline') return { planner: 'offline', why: null }
    if (ai.kind === 'offline') {
      if (choice === 'model')
        throw new AppError(409, 'No AI model is configured on this server (AI_BASE_URL); use the offline planner.', 'AI_NOT_CONFIGURED')
      return { planner: 'offline', why: 'Planned offline: no AI model is configured on this server.' }
    }
    try {
      await plans.requireFeature(workspaceId, 'aiPlanning')
      return { planner: 'model', why: null }
    } catch (error) {
      if (choice === 'model' || !(error instanceof LimitReached)) throw error
      return { planner: 'offline', why: `${error.message} This draft comes from the offline planner.` }
    }
  }

  return {
    /** Whether planning can use a model here ('openai-compatible') or only the offline planner. */
    aiKind: ai.kind,

    async inspect(
      caller: Pick<Caller, 'id' | 'emailVerified' | 'workspace'>,
      input: InspectInput,
      signal?: AbortSignal,
    ): Promise<Inspection> {
      requireBuilder(caller)
      const userId = caller.id
      const replay = checkedSteps(input.steps)
      await rateLimits.consume(`inspect:${userId}`, INSPECT_LIMIT)
      const steps: AutomationStep[] = input.url ? [{ type: 'navigate', url: input.url }, ...replay] : replay
      const first = steps[0]
      if (first?.type !== 'navigate')
        throw new ValidationError('steps must begin with a navigate step', [
          { path: 'steps.0.type', message: 'steps must begin with a navigate step' },
        ])
      const couldNotOpen = (why: string) => {
        const message = `Could not open the page: ${why}`
        return new ValidationError(message, [{ path: input.url ? 'url' : 'steps.0.url', message }])
      }
      // An address the guard refuses is answered before a browser starts (the slow part).
      const refusal = await refusedAddress(deps.page, first.url)
      if (refusal) throw couldNotOpen(refusal)
      const { timeLimitMs } = limits.inspection
      const inspect = () =>
        inspector.inspect({ steps }, signal).catch((error: unknown) => {
          throw error instanceof ExploreFailure && error.step === 1 ? couldNotOpen(error.message) : error
        })
      return exploring(caller, inspect, timeLimitMs, timeLimitMs, signal)
    },

    /** Plans for a person in a workspace: the person is limited to one at a time, the workspace pays and its plan decides. */
    async plan(caller: Pick<Caller, 'id' | 'emailVerified' | 'workspace'>, input: PlanInput, signal?: AbortSignal): Promise<PlanResult> {
      requireBuilder(caller)
      const userId = caller.id
      await rateLimits.consume(`plan:${userId}`, PLAN_LIMIT)
      const chosen = await choosePlanner(caller.workspace.id, input.planner)
      // 'For each row, …': both planners plan the rest, and the steps go in a "for each row" block.
      const { task, eachRow } = rowsLead(input.description)
      const finish = (draft: DraftPlan, planner: 'offline' | 'model', modelCalls: number) =>
        finishDraft(draft, planner, modelCalls, eachRow)
      // A 'start at <url>' anywhere in the sentence is where both planners begin.
      const start = inPlanningOrder(readInstructions(task), input.startUrl ?? null).start
      const { timeLimitMs, closeMs } = limits.plan
      const explore = <T>(work: (explorer: ReturnType<typeof createExplorer>) => Promise<T>) =>
        exploring(
          caller,
          () =>
            withGuardedPage(
              planPage,
              ({ session, perform }) => work(createExplorer({ page: session.page, perform, deadline: Date.now() + timeLimitMs, signal })),
              { timeLimitMs: timeLimitMs + closeMs, signal },
            ),
          timeLimitMs,
          timeLimitMs + closeMs,
          signal,
        )
      const offline = async (why: string | null): Promise<PlanResult> => {
        const draft = await explore((explorer) => planOffline(readInstructions(task), explorer, input.startUrl ?? null))
        return finish({ ...draft, notes: why ? [why, ...draft.notes] : draft.notes }, 'offline', 0)
      }
      if (chosen.planner === 'offline') return offline(chosen.why)
      let paid = 0
      try {
        const draft = await explore((explorer) =>
          planWithModel({
            description: task,
            start,
            explorer,
            ai,
            pay: async () => {
              // The ledger names the task without its secrets.
              await modelCalls.charge(
                { workspaceId: caller.workspace.id, memberId: caller.id },
                'planning',
                maskSecrets(input.description).text.slice(0, 80),
              )
              paid += 1
            },
          }),
        )
        return finish(draft, 'model', paid)
      } catch (error) {
        // The model could not be used (allowance used up, provider down): the offline planner answers, and says why.
        if (input.planner === 'model' || !(error instanceof AppError) || error instanceof RateLimited) throw error
        // The provider's own words (its address, its answer) are for the operator's log, not the member.
        const why = error.code === 'AI_PROVIDER_ERROR' ? 'the AI provider did not answer as expected' : error.message.replace(/\.$/, '')
        return {
          ...(await offline(`The AI model could not plan this (${why}). This draft comes from the offline planner.`)),
          modelCalls: paid,
        }
      }
    },
  }
}

/**
 * The draft as the step schema allows it (the model's texts may be too long): a step that is not is
 * left out, with a note. A row-by-row task's steps go in a "for each row" block (each is checked
 * inside one, where `{{row.…}}` may be).
 */
function finishDraft(draft: DraftPlan, planner: 'offline' | 'model', modelCalls: number, eachRow: boolean): PlanResult {
  const notes = [...draft.notes]
  const steps: AutomationStep[] = []
  const tried: StepTrial[] = []
  const room = eachRow ? MAX_PLAN_STEPS - 2 : MAX_PLAN_STEPS
  // A condition's skip with no row or item to skip to ends the run instead (condition-clause.ts).
  const drafted = eachRow ? draft.steps : skipsOutsideLoops(draft.steps)
  for (const [index, step] of drafted.entries()) {
    // Each step is checked where it stands: a block's start with an end after it, a skip inside a loop.
    const before: AutomationStep[] = eachRow || step.type === 'next' ? [ROWS_BLOCK.open] : []
    const after: AutomationStep[] = [...(BLOCK_STARTS.has(step.type) ? [ROWS_BLOCK.close] : []), ...before.map(() => ROWS_BLOCK.close)]
    const checked =
      step.type === 'end' || step.type === 'else' ? { ok: true as const, steps: [step] } : parseSteps([...before, step, ...after])
    if (checked.ok) {
      steps.push(step.type === 'end' || step.type === 'else' ? step : (checked.steps[before.length] as AutomationStep))
      tried.push(draft.tried[index] ?? { problem: null, picture: null })
    } else
      notes.push(`Step ${index + 1} was left out: ${checked.issues[0]?.message.replace(/^Step \d+ /, '') ?? 'it is not a valid step'}.`)
  }
  if (steps.length > room) notes.push(`Only the first ${room} steps were kept.`)
  const kept = steps.slice(0, room)
  const keptTried = tried.slice(0, room)
  if (!eachRow || kept.length === 0) return { steps: kept, tried: keptTried, notes, planner, modelCalls }
  const block: StepTrial = { problem: null, picture: null }
  return {
    steps: [ROWS_BLOCK.open, ...kept, ROWS_BLOCK.close],
    tried: [block, ...keptTried, block],
    notes: [...notes, 'The steps run once for each row of the data the run is started with: {{row.column}} names a cell.'],
    planner,
    modelCalls,
  }
}

export type PlanningService = ReturnType<typeof createPlanningService>
