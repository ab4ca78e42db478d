import { Form } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { INVITABLE_ROLES, WORKSPACE_ROLE_DESCRIPTIONS, WORKSPACE_ROLE_NAMES } from '#common/workspaces.ts'
import type { TeamView } from './team-view.server.ts'

/** The people in a team workspace; owners and admins change roles and remove people. */
export function MembersCard({ view }: { view: TeamView }) {
  const { role, me } = view
  const manages = role === 'owner' || role === 'admin'
  return (
    <Card>
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>
          {INVITABLE_ROLES.map((r) => `${WORKSPACE_ROLE_NAMES[r]}: ${WORKSPACE_ROLE_DESCRIPTIONS[r]}`).join(' ')}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y" aria-label="Members">
          {view.members.map((member) => {
            const editable = manages && member.userId !== me && (role === 'owner' || (member.role !== 'owner' && member.role !== 'admin'))
            return (
              <li key={member.userId} className="flex flex-wrap items-center justify-between gap-3 py-3" data-member={member.email}>
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium">{member.name || member.email}</p>
                  <p className="truncate text-xs text-muted-foreground">
                    {member.email} · joined {member.joinedLabel}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  {editable && member.role !== 'owner' ? (
                    <Form method="post" className="flex items-center gap-2">
                      <input type="hidden" name="intent" value="change-role" />
                      <input type="hidden" name="userId" value={member.userId} />
                      <label className="sr-only" htmlFor={`role-${member.userId}`}>
                        Role of {member.email}
                      </label>
                      <select
                        id={`role-${member.userId}`}
                        name="role"
                        defaultValue={member.role}
                        key={member.role}
                        className="h-9 rounded-md border bg-background px-2 text-sm"
                      >
                        {INVITABLE_ROLES.filter((r) => role === 'owner' || r !== 'admin').map((r) => (
                          <option key={r} value={r}>
                            {WORKSPACE_ROLE_NAMES[r]}
                          </option>
                        ))}
                      </select>
                      <Button type="submit" size="sm" variant="outline">
                        Change role
                      </Button>
                    </Form>
                  ) : (
                    <span className="rounded-full border px-2 py-0.5 text-xs">{WORKSPACE_ROLE_NAMES[member.role]}</span>
                  )}
                  {role === 'owner' && member.userId !== me ? (
                    <ConfirmAction
                      label="Make owner"
                      title={`Make ${member.email} the owner?`}
                      description="They get billing and can delete the workspace. You stay as an admin."
                      confirmLabel="Transfer ownership"
                      fields={{ intent: 'transfer', userId: member.userId }}
                      triggerProps={{ size: 'sm', variant: 'outline' }}
                    />
                  ) : null}
                  {editable ? (
                    <ConfirmAction
                      label="Remove"
                      title={`Remove ${member.email}?`}
                      description="They lose access at once and their API keys for this workspace stop working. What they built stays here."
                      confirmLabel="Remove"
                      fields={{ intent: 'remove-member', userId: member.userId }}
                      triggerProps={{ size: 'sm', variant: 'outline' }}
                      destructive
                    />
                  ) : null}
                </div>
              </li>
            )
          })}
        </ul>
      </CardContent>
    </Card>
  )
}
