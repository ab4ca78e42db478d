import type { AutomationStep } from '#common/automation-steps.ts'
import { inputNamesOf } from '#common/run-inputs.ts'
import { describeSchedule } from '#common/schedule-words.ts'
import { scheduleOutputSchema, zonedOf } from '#common/schedules.ts'
import { z } from '#common/zod.ts'
import type { AutomationSummary, Connection } from '../storage/stored-items.ts'
import { dataOf } from '#sdk'
import { answerOf, clientOf } from './api-client.ts'

const automationSchema = z.object({
  id: z.string(),
  name: z.string(),
  steps: z.array(z.unknown()),
  updatedAt: z.string(),
  // When it runs by itself (docs/decisions/036); a server from before schedules had kinds sends a string, read as none here.
  schedule: scheduleOutputSchema.nullable().optional().catch(null),
})
const summary = (automation: z.infer<typeof automationSchema>): AutomationSummary => ({
  id: automation.id,
  name: automation.name,
  stepCount: automation.steps.length,
  updatedAt: automation.updatedAt,
  inputNames: inputNamesOf(automation.steps as AutomationStep[]),
  schedule: automation.schedule
    ? `${describeSchedule(zonedOf(automation.schedule))}${automation.schedule.paused ? ' (paused)' : ''}`
    : null,
})

/** The workspace's automations, most recently changed first (the first hundred). */
export async function listAutomations(connection: Connection): Promise<AutomationSummary[]> {
  const automations = await dataOf(clientOf(connection).GET('/automations', { params: { query: { limit: 100 } } }))
  return answerOf(z.array(automationSchema), automations).map(summary)
}

/** Saves a recording as a new automation of the workspace. */
export async function saveAutomation(
  connection: Connection,
  automation: { name: string; steps: AutomationStep[] },
): Promise<AutomationSummary> {
  const saved = await dataOf(clientOf(connection).POST('/automations', { body: automation }))
  return summary(answerOf(automationSchema, saved))
}

/** Where the member opens an automation on the website. */
export const automationPageUrl = (connection: Connection, id: string) =>
  `${connection.serverUrl}/dashboard/automations/${encodeURIComponent(id)}`
