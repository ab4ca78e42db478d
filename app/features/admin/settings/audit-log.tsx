import { Pagination } from '#app/components/pagination.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'

export interface AuditRow {
  id: string
  actor: string
  action: string
  summary: string
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
  date: string
  dateLabel: string
}

/** Every admin change, newest first, read-only. */
export function AuditLog({ entries, page, pageCount }: { entries: AuditRow[]; page: number; pageCount: number }) {
  return (
    <Card id="audit-log">
      <CardHeader>
        <CardTitle level={2}>Audit Log</CardTitle>
        <CardDescription>Who changed what, with the values before and after.</CardDescription>
      </CardHeader>
      <CardContent>
        {entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">No admin changes yet.</p>
        ) : (
          <ol className="divide-y">
            {entries.map((entry) => (
              <li key={entry.id} className="py-3 text-sm">
                <p>
                  <span className="font-medium">{entry.summary}</span>
                </p>
                <p className="text-muted-foreground">
                  <time dateTime={entry.date}>{entry.dateLabel}</time> · {entry.actor} · <code className="text-xs">{entry.action}</code>
                </p>
                {entry.before || entry.after ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-xs text-muted-foreground">Before and after</summary>
                    <pre className="mt-1 rounded bg-muted p-2 text-xs [overflow-wrap:anywhere] whitespace-pre-wrap">
                      {JSON.stringify({ before: entry.before, after: entry.after }, null, 2)}
                    </pre>
                  </details>
                ) : null}
              </li>
            ))}
          </ol>
        )}
        <Pagination page={page} pageCount={pageCount} href={(n) => `/admin/settings?auditPage=${n}#audit-log`} label="Audit log pages" />
      </CardContent>
    </Card>
  )
}
