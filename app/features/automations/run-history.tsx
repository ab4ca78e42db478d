import { Form, Link } from 'react-router'
import { DataTable, EmptyRow } from '#app/components/data-table.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import type { RunStatus } from '#common/automations.ts'
import type { RunRow } from './run-view.server.ts'
import { RUN_STATUS_LABELS, RUN_STATUS_OPTIONS, RUN_TRIGGER_LABELS, RUNNER_LABELS, RunStatusBadge } from './run-status.tsx'

export interface HistoryFilters {
  status?: RunStatus
  automation?: string
}

/** Status and automation filters: a GET form, so the choice is in the address (reload and back work). */
export function RunFilters({
  filters,
  automations,
  hidden = {},
}: {
  filters: HistoryFilters
  automations: { id: string; name: string }[]
  /** Other query values the form keeps (e.g. the page of another list). */
  hidden?: Record<string, string>
}) {
  const filtered = Boolean(filters.status || filters.automation)
  return (
    <Form method="get" preventScrollReset className="flex flex-wrap items-end gap-3" aria-label="Filter runs">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="space-y-1.5">
        <Label htmlFor="history-status">Status</Label>
        <Select id="history-status" name="status" defaultValue={filters.status ?? ''} className="min-w-40">
          <option value="">All statuses</option>
          {RUN_STATUS_OPTIONS.map((status) => (
            <option key={status} value={status}>
              {RUN_STATUS_LABELS[status]}
            </option>
          ))}
        </Select>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="history-automation">Automation</Label>
        <Select id="history-automation" name="automation" defaultValue={filters.automation ?? ''} className="max-w-64 min-w-48">
          <option value="">All automations</option>
          {automations.map((automation) => (
            <option key={automation.id} value={automation.id}>
              {automation.name}
            </option>
          ))}
        </Select>
      </div>
      <Button type="submit" variant="outline">
        Apply filters
      </Button>
      {filtered ? (
        <Link to={`?${new URLSearchParams(hidden)}`} preventScrollReset className="py-2 text-sm text-primary hover:underline">
          Clear filters
        </Link>
      ) : null}
    </Form>
  )
}

function creditsLabel(run: Pick<RunRow, 'creditsCharged' | 'refunded'>) {
  if (run.creditsCharged === 0) return '0'
  return run.refunded ? `${run.creditsCharged} · refunded` : String(run.creditsCharged)
}

/** The runs, newest first, each linking to its run page. */
export function RunHistoryTable({ runs, caption, member }: { runs: RunRow[]; caption: string; member?: (run: RunRow) => string }) {
  const headers = ['Automation', ...(member ? ['Member'] : []), 'Status', 'Started', 'Trigger', 'Actions', 'Credits']
  return (
    <DataTable caption={caption} headers={headers}>
      {runs.length === 0 ? <EmptyRow colSpan={headers.length}>No runs found</EmptyRow> : null}
      {runs.map((run) => (
        <tr key={run.id} className="border-b last:border-0" data-run-id={run.id}>
          <td data-label="Automation" className="max-w-64 px-3 py-2">
            <Link to={`/dashboard/runs/${run.id}`} className="font-medium hover:underline">
              {run.automationName}
            </Link>
          </td>
          {member ? (
            <td data-label="Member" className="px-3 py-2">
              {member(run)}
            </td>
          ) : null}
          <td data-label="Status" className="px-3 py-2">
            <RunStatusBadge status={run.status} />
          </td>
          <td data-label="Started" className="px-3 py-2 whitespace-nowrap">
            <time dateTime={run.created.iso}>{run.created.label}</time>
          </td>
          <td data-label="Trigger" className="px-3 py-2 whitespace-nowrap">
            {RUN_TRIGGER_LABELS[run.trigger]} · {RUNNER_LABELS[run.runner]}
          </td>
          <td data-label="Actions" className="px-3 py-2 tabular-nums">
            {run.actionsPerformed} / {run.stepCount}
          </td>
          <td data-label="Credits" className="px-3 py-2 whitespace-nowrap tabular-nums">
            {creditsLabel(run)}
          </td>
        </tr>
      ))}
    </DataTable>
  )
}
