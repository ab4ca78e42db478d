import { useEffect } from 'react'
import { data, Link, useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/templates'
import { loadGallery, makeFromTemplate, type UseResult } from '#app/features/templates/gallery-view.server.ts'
import { TemplateCard } from '#app/features/templates/template-card.tsx'
import { requireMember } from '#app/lib/guards.server.ts'
import { cn } from '#app/lib/cn.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { toast } from '#app/lib/toast.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'

export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  return loadGallery(context, user, new URL(request.url).searchParams)
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const form = await request.formData()
  if (form.get('intent') === 'use-template') return makeFromTemplate(form, context, user)
  return data<UseResult>({ ok: false, error: { title: 'Unknown action' } }, { status: 400 })
}

export const meta = privatePageMeta('Templates')

export default function TemplatesPage() {
  const { templates, categories, category, canUse, error } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  useActionToast(answer)
  useEffect(() => {
    if (error) toast.error('Error loading templates', { description: error })
  }, [error])
  const filters = [{ value: null, label: 'All' }, ...categories]
  return (
    <main className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Templates</h1>
        <p className="text-muted-foreground">
          Ready-made automations for common tasks: fill in your addresses and words, and get an automation in this workspace to run or
          change.
        </p>
      </header>
      <nav aria-label="Template categories" className="flex flex-wrap gap-2">
        {filters.map((filter) => (
          <Link
            key={filter.label}
            to={filter.value ? `/dashboard/templates?category=${filter.value}` : '/dashboard/templates'}
            aria-current={filter.value === category ? 'page' : undefined}
            className={cn(
              'rounded-full border px-3 py-1 text-sm',
              filter.value === category ? 'bg-primary text-primary-foreground' : 'text-muted-foreground hover:text-foreground',
            )}
          >
            {filter.label}
          </Link>
        ))}
      </nav>
      {error ? (
        <p role="alert" className="rounded-md border border-destructive/50 p-3 text-sm">
          {error}
        </p>
      ) : templates.length === 0 ? (
        <p className="text-sm text-muted-foreground">No templates in this category yet.</p>
      ) : (
        <div className="grid gap-4 xl:grid-cols-2">
          {templates.map((template) => (
            <TemplateCard key={template.id} template={template} canUse={canUse} answer={answer} />
          ))}
        </div>
      )}
    </main>
  )
}
