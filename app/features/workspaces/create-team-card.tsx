import { Form, Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'

/** Creating a team workspace: for subscribers whose plan includes team workspaces (Business). */
export function CreateTeamCard({ allowed }: { allowed: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Create a team workspace</CardTitle>
        <CardDescription>
          A team shares automations, runs, API keys and credits, with roles for each person. It has its own plan and billing.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {allowed ? (
          <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <input type="hidden" name="intent" value="create-team" />
            <div className="grid flex-1 gap-1.5">
              <Label htmlFor="team-name">Workspace name</Label>
              <Input id="team-name" name="name" required minLength={2} maxLength={60} placeholder="Operations" />
            </div>
            <Button type="submit">Create workspace</Button>
          </Form>
        ) : (
          <p className="text-sm text-muted-foreground">
            Team workspaces are part of the Business plan.{' '}
            <Link to="/billing" className="text-primary hover:underline">
              See plans
            </Link>
          </p>
        )}
      </CardContent>
    </Card>
  )
}
