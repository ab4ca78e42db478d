import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import type { ApiKeyScope } from '#common/api-keys.ts'
import { planInputSchema } from '#common/planning.ts'
import { inputNamesOf, runInputsSchema } from '#common/run-inputs.ts'
import { stepInWords } from '#common/step-words.ts'
import { previewSteps } from '#common/template-steps.ts'
import { TEMPLATE_CATEGORIES } from '#common/templates.ts'
import type { WorkspaceRole } from '#common/workspaces.ts'
import { z } from '#common/zod.ts'
import type { McpContext } from './mcp-context.ts'
import { runSummary } from './run-summary.ts'
import { isSettled, waitForRun } from './wait-for-run.ts'

/** The longest an assistant may ask run_automation to wait for the end of its run. */
export const MAX_WAIT_SECONDS = 120
const DEFAULT_WAIT_SECONDS = 30

type Shape = Record<string, z.ZodType>

/** One tool of the MCP server: what it takes, who may call it, and what it does (through the services). */
export interface McpTool<S extends Shape = Shape> {
  name: string
  title: string
  description: string
  inputSchema: S
  /** The API key's scope it needs, and the least role in the key's workspace. */
  needs: { scope: ApiKeyScope; role: WorkspaceRole; admin?: true }
  annotations: ToolAnnotations
  call(args: z.output<z.ZodObject<S>>, context: McpContext): Promise<unknown>
}

const tool = <S extends Shape>(definition: McpTool<S>): McpTool => definition as unknown as McpTool

const automationId = z.uuid('automation_id must be the id of one of your automations (list_automations gives them)')
const runId = z.uuid('run_id must be the id of a run (run_automation gives it)')

export const MCP_TOOLS: readonly McpTool[] = [
  tool({
    name: 'list_automations',
    title: 'List automations',
    description:
      "The workspace's automations, newest first: id, name, description, the inputs a run takes ({{input.name}} placeholders), and its steps in words.",
    inputSchema: {
      page: z.number().int().min(1).default(1).describe('Page number, from 1'),
      limit: z.number().int().min(1).max(100).default(25).describe('Automations per page (at most 100)'),
    },
    needs: { scope: 'automations', role: 'viewer' },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async call({ page, limit }, { services, caller }) {
      const found = await services.automations.list(caller.workspace.id, { page, limit })
      return {
        automations: found.items.map((automation) => ({
          id: automation.id,
          name: automation.name,
          description: automation.description,
          enabled: automation.enabled,
          inputs: inputNamesOf(automation.steps),
          steps: automation.steps.map(stepInWords),
        })),
        page: found.page,
        total: found.total,
      }
    },
  }),
  tool({
    name: 'run_automation',
    title: 'Run an automation',
    description:
      'Starts a cloud run of an automation with the given inputs (it costs credits), then waits up to wait_seconds for it to finish. ' +
      'The answer has the run: status, steps in words, the data it extracted. If it is still going, call get_run with its id later.',
    inputSchema: {
      automation_id: automationId,
      inputs: runInputsSchema.optional().describe('A value for each input the automation takes, by name'),
      wait_seconds: z
        .number()
        .int()
        .min(0)
        .max(MAX_WAIT_SECONDS)
        .default(DEFAULT_WAIT_SECONDS)
        .describe(`How long to wait for the run to finish, in seconds (0: answer at once; at most ${MAX_WAIT_SECONDS})`),
    },
    needs: { scope: 'automations', role: 'member' },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async call({ automation_id, inputs, wait_seconds }, { services, caller, publicUrl, signal }) {
      const started = await services.runs.start(automation_id, caller, { runner: 'cloud', trigger: 'api', inputs: inputs ?? {} })
      const run = await waitForRun(started.id, () => services.runs.get(started.id, caller), services.events, wait_seconds * 1000, signal)
      return {
        ...runSummary(run, publicUrl),
        ...(isSettled(run) ? {} : { note: `The run is ${run.status} still: call get_run with run_id ${run.id} to see how it ends.` }),
      }
    },
  }),
  tool({
    name: 'get_run',
    title: 'Get a run',
    description: 'A run of this workspace: its status, its steps in words as carried out, the data it extracted, its files and any error.',
    inputSchema: { run_id: runId },
    needs: { scope: 'automations', role: 'viewer' },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async call({ run_id }, { services, caller, publicUrl }) {
      return runSummary(await services.runs.get(run_id, caller), publicUrl)
    },
  }),
  tool({
    name: 'plan_automation',
    title: 'Plan an automation from a sentence',
    description:
      'Drafts the steps of an automation from a description of the task, trying them on the site. Nothing is saved: ' +
      'show the draft to the person, and save it only if they want it (POST /api/automations with these steps).',
    inputSchema: {
      description: planInputSchema.shape.description.describe('The task in a sentence or two'),
      start_url: planInputSchema.shape.startUrl.describe('The address the task starts on'),
    },
    needs: { scope: 'automations', role: 'member' },
    annotations: { readOnlyHint: true, openWorldHint: true },
    async call({ description, start_url }, { services, caller, signal }) {
      const plan = await services.planning.plan(caller, { description, startUrl: start_url, planner: 'auto' }, signal)
      return {
        saved: false,
        planner: plan.planner,
        stepsInWords: plan.steps.map(stepInWords),
        steps: plan.steps,
        notes: plan.notes,
      }
    },
  }),
  tool({
    name: 'list_templates',
    title: 'List templates',
    description: "The template gallery's published templates: what each does, its inputs, and its steps in words.",
    inputSchema: { category: z.enum(TEMPLATE_CATEGORIES).optional().describe('Only the templates of this category') },
    needs: { scope: 'automations', role: 'viewer' },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async call({ category }, { services }) {
      const templates = await services.templates.listPublished({ category })
      return {
        templates: templates.map((template) => ({
          slug: template.slug,
          name: template.name,
          category: template.category,
          description: template.description,
          advanced: template.advanced,
          inputs: template.inputs,
          steps: previewSteps(template.steps, template.inputs),
        })),
      }
    },
  }),
]
