import { Form, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { INVITABLE_ROLES, WORKSPACE_ROLE_NAMES } from '#common/workspaces.ts'
import type { TeamView } from './team-view.server.ts'

/** Invite by e-mail, and the invitations still pending (owners and admins). */
export function InvitationsCard({ view }: { view: TeamView }) {
  const navigation = useNavigation()
  const sending = navigation.formData?.get('intent') === 'invite'
  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite people</CardTitle>
        <CardDescription>They get an e-mail with a link that works once, for 7 days. A pending invitation takes a seat.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end" key={view.invitations.length}>
          <input type="hidden" name="intent" value="invite" />
          <div className="grid flex-1 gap-1.5">
            <Label htmlFor="invite-email">Email</Label>
            <Input id="invite-email" name="email" type="email" required maxLength={254} autoComplete="off" />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="invite-role">Role</Label>
            <select id="invite-role" name="role" defaultValue="member" className="h-10 rounded-md border bg-background px-2 text-sm">
              {INVITABLE_ROLES.filter((r) => view.role === 'owner' || r !== 'admin').map((r) => (
                <option key={r} value={r}>
                  {WORKSPACE_ROLE_NAMES[r]}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" disabled={sending}>
            {sending ? 'Sending...' : 'Send invitation'}
          </Button>
        </Form>
        {view.invitations.length === 0 ? (
          <p className="text-sm text-muted-foreground">No invitations pending.</p>
        ) : (
          <ul className="divide-y" aria-label="Pending invitations">
            {view.invitations.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span>
                  {invitation.email} · {WORKSPACE_ROLE_NAMES[invitation.role]} · expires {invitation.expiresLabel}
                </span>
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke-invitation" />
                  <input type="hidden" name="invitationId" value={invitation.id} />
                  <Button type="submit" size="sm" variant="outline" aria-label={`Withdraw the invitation of ${invitation.email}`}>
                    Withdraw
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
