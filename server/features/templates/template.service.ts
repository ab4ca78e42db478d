import { and, asc, count, eq, like } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import { Conflict, LimitReached, NotFound, ValidationError } from '#common/errors.ts'
import { slugify, uniqueSlug } from '#common/slug.ts'
import { checkTemplateSteps, filledSteps, resolveInputs } from '#common/template-steps.ts'
import { MAX_TEMPLATES, type TemplateCategory, type TemplateCreate, type TemplateInput, type TemplateUpdate } from '#common/templates.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import type { Db } from '#server/db/client.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { automationTemplates } from '#server/db/schema/index.ts'
import type { Actor, AuditService } from '#server/features/audit/audit.service.ts'
import type { Automation, AutomationService } from '#server/features/automations/automation.service.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'

export type Template = typeof automationTemplates.$inferSelect

/** Enough for several admins saving the same name at once. */
const SLUG_ATTEMPTS = 5

/**
 * The template gallery (docs/decisions/022). The site's admins write templates; members of a
 * workspace browse the published ones and make automations of them in their current workspace.
 * Advanced templates need a plan with `advancedTemplates`; the refusal names the cheapest such plan.
 */
export function createTemplateService(deps: {
  db: Db
  audit: Pick<AuditService, 'record'>
  plans: Pick<PlanService, 'requireFeature'>
  automations: Pick<AutomationService, 'create'>
}) {
  const { db, audit, plans, automations } = deps

  /** The steps as stored: checked with the examples filled in (a ValidationError names the step, field and input). */
  function checkedSteps(steps: unknown[], inputs: TemplateInput[]): unknown[] {
    const checked = checkTemplateSteps(steps, inputs)
    if (!checked.ok) throw new ValidationError(checked.issues[0]?.message ?? 'Invalid steps', checked.issues)
    return checked.steps
  }

  async function find(id: string): Promise<Template> {
    const [row] = await db.select().from(automationTemplates).where(eq(automationTemplates.id, id))
    if (!row) throw new NotFound('Template not found')
    return row
  }

  /** Why this workspace may not use the advanced templates ('… is part of the Business plan …'), or null. */
  async function advancedRefusal(workspaceId: string): Promise<string | null> {
    try {
      await plans.requireFeature(workspaceId, 'advancedTemplates')
      return null
    } catch (error) {
      if (error instanceof LimitReached) return error.message
      throw error
    }
  }

  const byCategoryAndName = [asc(automationTemplates.category), asc(automationTemplates.name), asc(automationTemplates.id)]

  return {
    advancedRefusal,

    /** The published templates, by category and name, of one category when given. */
    async listPublished(query: { category?: TemplateCategory } = {}): Promise<Template[]> {
      const where = and(
        eq(automationTemplates.published, true),
        query.category ? eq(automationTemplates.category, query.category) : undefined,
      )
      return db
        .select()
        .from(automationTemplates)
        .where(where)
        .orderBy(...byCategoryAndName)
        .limit(MAX_TEMPLATES)
    },

    /** Every template, drafts included (the admin's tab). */
    async listAll(query: { category?: TemplateCategory } = {}): Promise<Template[]> {
      const where = query.category ? eq(automationTemplates.category, query.category) : undefined
      return db
        .select()
        .from(automationTemplates)
        .where(where)
        .orderBy(...byCategoryAndName)
        .limit(MAX_TEMPLATES)
    },

    /** A published template; a draft is as unknown as a missing one. */
    async getPublished(id: string): Promise<Template | null> {
      const [row] = await db
        .select()
        .from(automationTemplates)
        .where(and(eq(automationTemplates.id, id), eq(automationTemplates.published, true)))
      return row ?? null
    },

    /** Any template (admins). */
    get: find,

    async create(actor: Actor, input: TemplateCreate): Promise<Template> {
      const steps = checkedSteps(input.steps, input.inputs)
      const [total] = await db.select({ n: count() }).from(automationTemplates)
      if ((total?.n ?? 0) >= MAX_TEMPLATES) throw new Conflict(`The gallery keeps up to ${MAX_TEMPLATES} templates; delete some first.`)
      const base = slugify(input.name, 60) || 'template'
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction(async (tx) => {
            const taken = await tx
              .select({ slug: automationTemplates.slug })
              .from(automationTemplates)
              .where(like(automationTemplates.slug, `${base}%`))
            const [row] = await tx
              .insert(automationTemplates)
              .values({ ...input, steps, slug: uniqueSlug(base, new Set(taken.map((candidate) => candidate.slug))) })
              .returning()
            if (!row) throw new Error('template insert returned nothing')
            await audit.record(tx, actor, {
              action: 'template.create',
              targetType: 'template',
              targetId: row.id,
              summary: `Added the template ${row.name}${row.published ? ' (published)' : ''}`,
              after: { name: row.name, category: row.category, advanced: row.advanced, published: row.published },
            })
            return row
          })
        } catch (error) {
          // Another admin took the same slug between the read and the insert: look again.
          if (!isUniqueViolation(error) || attempt >= SLUG_ATTEMPTS) throw error
        }
      }
    },

    /** Saves the fields sent; steps and inputs are checked together, as they will be stored. */
    async update(actor: Actor, id: string, changes: TemplateUpdate): Promise<Template> {
      const before = await find(id)
      const inputs = changes.inputs ?? before.inputs
      const steps = changes.steps || changes.inputs ? checkedSteps(changes.steps ?? before.steps, inputs) : undefined
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(automationTemplates)
          .set({ ...changes, steps, updatedAt: new Date() })
          .where(eq(automationTemplates.id, id))
          .returning()
        if (!row) throw new NotFound('Template not found')
        const keys = Object.keys(changes) as (keyof TemplateUpdate)[]
        const publishing = changes.published !== undefined && changes.published !== before.published
        await audit.record(tx, actor, {
          action: publishing ? (row.published ? 'template.publish' : 'template.unpublish') : 'template.update',
          targetType: 'template',
          targetId: id,
          summary: publishing
            ? `${row.published ? 'Published' : 'Unpublished'} the template ${row.name}`
            : `Changed the template ${row.name}: ${keys.join(', ')}`,
          before: Object.fromEntries(keys.map((key) => [key, before[key]])),
          after: Object.fromEntries(keys.map((key) => [key, row[key]])),
        })
        return row
      })
    },

    /** Automations made from it stay as they are: they are copies. */
    async remove(actor: Actor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx.delete(automationTemplates).where(eq(automationTemplates.id, id)).returning()
        if (!row) throw new NotFound('Template not found')
        await audit.record(tx, actor, {
          action: 'template.delete',
          targetType: 'template',
          targetId: id,
          summary: `Deleted the template ${row.name}`,
          before: { name: row.name, category: row.category, steps: row.steps, inputs: row.inputs },
        })
      })
    },

    /**
     * 'Use template': a new automation in the caller's current workspace, with the member's values
     * in the template's steps. Members and above (viewers browse only); an advanced template needs
     * the plan's `advancedTemplates`. A missing or bad value is a 400 naming the input.
     */
    async use(caller: Caller, id: string, input: { inputs: Readonly<Record<string, string>>; name?: string }): Promise<Automation> {
      requireWorkspaceRole(caller.workspace.role, 'member', 'Creating automations')
      const [template] = await db
        .select()
        .from(automationTemplates)
        .where(and(eq(automationTemplates.id, id), eq(automationTemplates.published, true)))
      if (!template) throw new NotFound('Template not found')
      if (template.advanced) await plans.requireFeature(caller.workspace.id, 'advancedTemplates')
      const resolved = resolveInputs(template.inputs, input.inputs)
      if (!resolved.ok) throw new ValidationError(resolved.issue.message, [resolved.issue])
      const filled = filledSteps(template.steps, template.inputs, resolved.values)
      if (!filled.ok) throw new ValidationError(filled.issues[0]?.message ?? 'Invalid steps', filled.issues)
      return automations.create(
        caller,
        { name: input.name ?? template.name, description: template.description, steps: filled.steps, schedule: null, enabled: true },
        { template: { id: template.id, name: template.name } },
      )
    },
  }
}

export type TemplateService = ReturnType<typeof createTemplateService>
