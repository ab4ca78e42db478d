import { format } from 'date-fns'
import { useLoaderData } from 'react-router'
import type { Route } from './+types/admin-settings'
import { actionResult } from '#app/lib/action-result.server.ts'
import { parseInput } from '#app/features/admin/parse-input.server.ts'
import { AuditLog } from '#app/features/admin/settings/audit-log.tsx'
import { SettingsForm } from '#app/features/admin/settings/settings-form.tsx'
import { requireAdminAction, requireAdminMember } from '#app/lib/guards.server.ts'
import { DEFAULT_PAGE_SIZE } from '#common/pagination.ts'
import { appSettingsSchema } from '#common/settings.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdminMember(context)
  const requested = Number(new URL(request.url).searchParams.get('auditPage') ?? '1')
  const auditPage = Number.isInteger(requested) && requested >= 1 && requested <= 100_000 ? requested : 1
  const [settings, audit] = await Promise.all([
    context.services.settings.get(),
    context.services.audit.list({ page: auditPage, limit: DEFAULT_PAGE_SIZE }),
  ])
  return {
    settings,
    audit: {
      page: auditPage,
      pageCount: Math.max(1, Math.ceil(audit.total / DEFAULT_PAGE_SIZE)),
      entries: audit.items.map((entry) => ({
        id: entry.id,
        actor: entry.actorEmail,
        action: entry.action,
        summary: entry.summary,
        before: entry.before,
        after: entry.after,
        date: entry.createdAt.toISOString(),
        dateLabel: format(entry.createdAt, 'MMM d, yyyy HH:mm'),
      })),
    },
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireAdminAction(context)
  const form = Object.fromEntries(await request.formData())
  return actionResult(
    () =>
      context.services.settings.update(parseInput(appSettingsSchema, { ...form, maintenanceMode: form.maintenanceMode === 'on' }), actor),
    { intent: 'save-settings', success: { title: 'Settings saved' }, error: 'Error saving settings' },
  )
}

export default function AdminSettingsTab() {
  const { settings, audit } = useLoaderData<typeof loader>()
  return (
    <section aria-label="System Settings" className="space-y-8">
      <SettingsForm settings={settings} />
      <AuditLog {...audit} />
    </section>
  )
}
