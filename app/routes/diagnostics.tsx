import { RefreshCw } from 'lucide-react'
import { Suspense } from 'react'
import { Await, useLoaderData, useRevalidator } from 'react-router'
import type { Route } from './+types/diagnostics'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { MAIN_CONTENT_ID } from '#app/components/layout/skip-link.tsx'
import { requireAdminMember } from '#app/lib/guards.server.ts'
import type { Check, DiagnosticsReport } from '#server/features/diagnostics/diagnostics.service.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { revalidateLatest } from '#app/lib/revalidate.ts'

// Admins only (decisions.md): it shows session and connection details, never a secret.
export function loader({ context }: Route.LoaderArgs) {
  const user = requireAdminMember(context)
  return { report: context.services.diagnostics.run(user) }
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta = privatePageMeta('Billing Page Diagnostics')

export default function DiagnosticsPage() {
  const { report } = useLoaderData<typeof loader>()
  const revalidator = useRevalidator()
  const running = <p role="status">Running diagnostics...</p>
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto max-w-3xl space-y-6 px-4 py-10 outline-none">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">Billing Page Diagnostics</h1>
        <Button variant="outline" onClick={() => revalidateLatest(revalidator.revalidate)} disabled={revalidator.state === 'loading'}>
          <RefreshCw aria-hidden="true" /> Run again
        </Button>
      </div>
      {revalidator.state === 'loading' ? (
        running
      ) : (
        <Suspense fallback={running}>
          <Await resolve={report} errorElement={<p role="alert">Diagnostics could not run.</p>}>
            {(resolved) => <Report report={resolved} />}
          </Await>
        </Suspense>
      )}
    </main>
  )
}

function Report({ report }: { report: DiagnosticsReport }) {
  return (
    <div className="grid gap-4">
      <Panel
        title="Authentication session"
        result={{ ok: true, value: { 'User ID': report.session.userId, Email: report.session.email } }}
      />
      <Panel
        title="User profile"
        result={map(report.profile, (profile) => ({
          Role: profile.role,
          Plan: profile.subscriptionPlan,
          Credits: profile.credits,
          Name: profile.fullName ?? '—',
        }))}
      />
      <Panel title="Profiles table" result={map(report.profilesTable, (table) => ({ Rows: table.count }))} />
      <Panel
        title="Backend connection"
        result={map(report.backend, (backend) => ({
          Database: backend.kind,
          Address: backend.location,
          Server: backend.serverVersion,
          'Round trip': `${backend.latencyMs} ms`,
        }))}
      />
      <Card className={report.errors.length ? 'border-destructive/60' : undefined}>
        <CardHeader>
          <CardTitle level={2}>Errors</CardTitle>
        </CardHeader>
        <CardContent>
          {report.errors.length ? (
            <ul role="alert" className="list-disc space-y-1 pl-5 text-sm text-destructive">
              {report.errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">None. Ran at {new Date(report.ranAt).toUTCString()}.</p>
          )}
        </CardContent>
      </Card>
    </div>
  )
}

function map<T>(check: Check<T>, shape: (value: T) => Record<string, string | number>): Check<Record<string, string | number>> {
  return check.ok ? { ok: true, value: shape(check.value) } : check
}

function Panel({ title, result }: { title: string; result: Check<Record<string, string | number>> }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2} className="flex items-center justify-between gap-2">
          {title}
          <span className={result.ok ? 'text-sm text-emerald-700 dark:text-emerald-300' : 'text-sm text-destructive'}>
            {result.ok ? 'OK' : 'Failed'}
          </span>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {result.ok ? (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
            {Object.entries(result.value).map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="font-mono break-all">{value}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="text-sm text-destructive">{result.error}</p>
        )}
      </CardContent>
    </Card>
  )
}
