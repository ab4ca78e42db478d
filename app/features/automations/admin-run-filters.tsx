import { Form, Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import type { RunStatus } from '#common/automations.ts'
import { RUN_STATUS_LABELS, RUN_STATUS_OPTIONS } from './run-status.tsx'

/** The admin's filters over every member's runs: status, and a member by e-mail or id (a GET form). */
export function AdminRunFilters({ status, member }: { status?: RunStatus; member?: string }) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter runs">
      <div className="space-y-1.5">
        <Label htmlFor="admin-runs-status">Status</Label>
        <Select id="admin-runs-status" name="status" defaultValue={status ?? ''} className="min-w-40">
          <option value="">All statuses</option>
          {RUN_STATUS_OPTIONS.map((option) => (
            <option key={option} value={option}>
              {RUN_STATUS_LABELS[option]}
            </option>
          ))}
        </Select>
      </div>
      <div className="w-full max-w-xs space-y-1.5">
        <Label htmlFor="admin-runs-member">Member e-mail or id</Label>
        <Input id="admin-runs-member" type="search" name="member" defaultValue={member ?? ''} maxLength={200} autoComplete="off" />
      </div>
      <Button type="submit" variant="outline">
        Apply filters
      </Button>
      {status || member ? (
        <Link to="/admin/runs" className="py-2 text-sm text-primary hover:underline">
          Clear filters
        </Link>
      ) : null}
    </Form>
  )
}
