import { data, redirect, type AppLoadContext } from 'react-router'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { pageCaller } from '#app/lib/guards.server.ts'
import { readForPage } from '#app/lib/read-for-page.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { isUuid } from '#common/ids.ts'
import {
  MAX_TEMPLATE_INPUTS,
  TEMPLATE_CATEGORIES,
  TEMPLATE_CATEGORY_NAMES,
  templateUseSchema,
  type TemplateCategory,
} from '#common/templates.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'

/** The form field of an input: `input.search_term`. */
export const INPUT_FIELD_PREFIX = 'input.'

const categoryOf = (value: string | null): TemplateCategory | null =>
  (TEMPLATE_CATEGORIES as readonly string[]).includes(value ?? '') ? (value as TemplateCategory) : null

/**
 * What the gallery (/dashboard/templates, docs/decisions/022) shows: the published templates of a
 * category or all, each with what the form needs, whether the workspace's plan locks it, and
 * whether the member may use templates here (viewers browse only).
 */
export async function loadGallery(context: AppLoadContext, user: SessionUser, params: URLSearchParams) {
  const caller = pageCaller(user)
  const category = categoryOf(params.get('category'))
  const { templates } = context.services
  const read = await readForPage(
    context,
    async () => {
      const rows = await templates.listPublished({ category: category ?? undefined })
      const refusal = rows.some((row) => row.advanced) ? await templates.advancedRefusal(caller.workspace.id) : null
      return { rows, refusal }
    },
    'The templates could not be loaded. Please try again in a moment.',
  )
  return {
    category,
    categories: TEMPLATE_CATEGORIES.map((value) => ({ value, label: TEMPLATE_CATEGORY_NAMES[value] })),
    canUse: caller.workspace.role !== 'viewer',
    error: read.ok ? null : read.message,
    templates: (read.ok ? read.value.rows : []).map((row) => ({
      id: row.id,
      name: row.name,
      category: TEMPLATE_CATEGORY_NAMES[row.category],
      description: row.description,
      steps: row.steps,
      inputs: row.inputs,
      advanced: row.advanced,
      locked: row.advanced && read.ok ? read.value.refusal : null,
    })),
  }
}
export type Gallery = Awaited<ReturnType<typeof loadGallery>>

/** The gallery's answer to 'Use template': which card, and which input the refusal is about. */
export type UseResult = ActionResult & { templateId?: string }

/** 'Use template': a new automation in the current workspace, then its builder; a refusal goes back to the card. */
export async function makeFromTemplate(form: FormData, context: AppLoadContext, user: SessionUser) {
  const templateId = String(form.get('templateId') ?? '').slice(0, 100)
  const refuse = (status: number, description: string, field?: string, code?: string) =>
    data<UseResult>({ ok: false, templateId, field, code, error: { title: 'Could not use the template', description } }, { status })
  if (!isUuid(templateId)) return refuse(404, 'Template not found')
  const inputs = [...form]
    .filter((entry): entry is [string, string] => entry[0].startsWith(INPUT_FIELD_PREFIX) && typeof entry[1] === 'string')
    .slice(0, MAX_TEMPLATE_INPUTS)
    .map(([key, value]) => [key.slice(INPUT_FIELD_PREFIX.length), value] as const)
  const parsed = templateUseSchema.safeParse({ inputs: Object.fromEntries(inputs), name: form.get('name') ?? undefined })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return refuse(400, issue?.message ?? 'Invalid input', issue?.path.join('.'))
  }
  const outcome = await attempt(() => context.services.templates.use(pageCaller(user), templateId, parsed.data))
  if (!outcome.ok) {
    const { error } = outcome
    return refuse(error.status, error.issues?.[0]?.message ?? error.message, error.issues?.[0]?.path, error.code)
  }
  const flash = await flashHeader({
    type: 'success',
    title: 'Automation created from the template',
    description: `"${outcome.value.name}" is in your workspace with your values: check its steps, then run it.`,
  })
  return redirect(`/dashboard/automations/${outcome.value.id}`, { headers: withCookies([flash]) })
}
