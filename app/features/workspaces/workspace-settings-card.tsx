import { Form, Link } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import type { TeamView } from './team-view.server.ts'

/** A team workspace's name (owners and admins), its two-factor requirement (owners), leaving it, and deleting it (owners). */
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
        <TwoFactorRequirement view={view} />
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

/**
 * 'Require two-factor sign-in' (docs/decisions/023): everyone sees whether it is on; an owner who
 * has two-factor sign-in on changes it (the server checks both again).
 */
function TwoFactorRequirement({ view }: { view: TeamView }) {
  const { workspace, role, myTwoFactor } = view
  const mayChange = role === 'owner' && myTwoFactor
  return (
    <Form method="post" className="space-y-2 rounded-md border p-3">
      <input type="hidden" name="intent" value="require-two-factor" />
      <div className="flex items-start gap-2">
        <input
          id="require-two-factor"
          name="requireTwoFactor"
          type="checkbox"
          defaultChecked={workspace.requireTwoFactor}
          disabled={!mayChange}
          className="mt-0.5 size-4 accent-primary"
          aria-describedby="require-two-factor-hint"
        />
        <div>
          <Label htmlFor="require-two-factor">Require two-factor sign-in</Label>
          <p id="require-two-factor-hint" className="text-xs text-muted-foreground">
            Members without two-factor sign-in cannot work in this workspace until they set it up in Settings. Personal workspaces are not
            affected.
          </p>
        </div>
      </div>
      {role !== 'owner' ? (
        <p className="text-xs text-muted-foreground">Only the workspace&apos;s owners change this.</p>
      ) : myTwoFactor ? (
        <Button type="submit" variant="outline" size="sm">
          Save requirement
        </Button>
      ) : (
        <p className="text-xs text-muted-foreground">
          Turn on{' '}
          <Link to="/settings#two-factor" className="text-primary underline">
            two-factor sign-in
          </Link>{' '}
          for your own account first.
        </p>
      )}
    </Form>
  )
}
