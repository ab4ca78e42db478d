import type { AppLoadContext } from 'react-router'
import { attempt } from '#app/lib/attempt.server.ts'
import type { Caller } from '#common/auth.ts'

type Services = AppLoadContext['services']

/** What the builder's helpers can do for this member: which planner answers, whether runs may ask the model. */
export async function builderAssist(services: Services, workspaceId: string) {
  const allowances = await services.plans.allowancesOf(workspaceId)
  const model = services.planning.aiKind !== 'offline'
  return {
    planner: model && allowances.aiPlanning ? ('model' as const) : ('offline' as const),
    plannerNote: !model
      ? 'The offline planner reads your sentence (no AI model is configured on this server).'
      : allowances.aiPlanning
        ? 'The AI model plans it, looking at the site step by step: 1 credit per question it is asked.'
        : `The offline planner reads your sentence: planning with the AI model is part of a paid plan (you are on ${allowances.plan}).`,
    modelRepair: model && allowances.modelRepair,
  }
}
export type BuilderAssist = Awaited<ReturnType<typeof builderAssist>>

/** The automation's optimisation suggestions, or why there are none to show (the plan). */
export async function suggestionsView(services: Services, automationId: string, caller: Caller) {
  const found = await attempt(() => services.suggestions.list(automationId, caller))
  if (!found.ok) return { items: [], locked: found.error.message }
  return {
    locked: null,
    items: found.value.map((suggestion) => ({
      id: suggestion.id,
      kind: suggestion.kind,
      step: suggestion.step,
      title: suggestion.title,
      detail: suggestion.detail,
    })),
  }
}
export type SuggestionsView = Awaited<ReturnType<typeof suggestionsView>>
