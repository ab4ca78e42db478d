import { Form } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import type { TeamView } from './team-view.server.ts'

/** A team workspace's name (owners and admins), leaving it, and deleting it (owners). */
export function WorkspaceSettingsCard({ view }: { view: TeamView }) {
  const { workspace, role } = view
  const manages = role === 'owner' || role === 'admin'
  return (
    <Card>
      <CardHeader>
        <CardTitle>Workspace settings</CardTitle>
        <CardDescription>Billing for this workspace is on the Billing page, for its owners.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {manages ? (
          <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <input type="hidden" name="intent" value="update-workspace" />
            <div className="grid flex-1 gap-1.5">
              <Label htmlFor="workspace-name">Name</Label>
              <Input id="workspace-name" name="name" defaultValue={workspace.name} required minLength={2} maxLength={60} />
            </div>
            <Button type="submit" variant="outline">
              Save name
            </Button>
          </Form>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <ConfirmAction
            label="Leave workspace"
            title={`Leave ${workspace.name}?`}
            description="You lose access to its automations and runs. What you built stays in the workspace."
            confirmLabel="Leave"
            fields={{ intent: 'leave' }}
            triggerProps={{ variant: 'outline' }}
          />
          {role === 'owner' ? (
            <ConfirmAction
              label="Delete workspace"
              title={`Delete ${workspace.name}?`}
              description="Its automations, runs, keys, credits and activity are deleted for everyone. This cannot be undone."
              confirmLabel="Delete workspace"
              fields={{ intent: 'delete-workspace' }}
              triggerProps={{ variant: 'destructive' }}
              destructive
            />
          ) : null}
        </div>
      </CardContent>
    </Card>
  )
}
