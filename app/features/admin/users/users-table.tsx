import { Ban, Eye, ListTree, LogOut, Mail, MailCheck, Pencil, ShieldOff, Trash2, UserCheck } from 'lucide-react'
import { useRef, useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { DataTable, EmptyRow } from '#app/components/data-table.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { EditUserDialog } from './edit-user-dialog.tsx'
import { SendEmailDialog } from './send-email-dialog.tsx'
import { SuspendUserDialog } from './suspend-user-dialog.tsx'
import { ViewAsDialog } from './view-as-dialog.tsx'

export interface UserRow {
  id: string
  email: string
  /** E.164, or null. */
  phone: string | null
  name: string
  role: 'user' | 'admin'
  plan: string
  credits: number
  /** Automation runs started this month (the plan's monthly cap counts these). */
  runsThisMonth: number
  verified: boolean
  /** Two-factor sign-in on, and the account's passkeys (docs/decisions/023). */
  twoFactor: boolean
  passkeys: number
  lastLogin: string
  created: string
  /** Since when and why an admin suspended them (docs/decisions/062); null when they are not. */
  suspension: { since: string; reason: string } | null
  /** The day the member's own deletion erases the account (docs/decisions/065); null when none waits. */
  deletionOn: string | null
}

export interface PlanOption {
  slug: string
  name: string
}

const HEADERS = ['User ID', 'Email', 'Name', 'Plan', 'Credits', 'Verified', 'Last Login', 'Created', 'Actions']

const muted = (text: string) => <span className="block text-xs text-muted-foreground">{text}</span>

/**
 * The users, a row each, narrow enough for a 1280 px screen beside the menu (about 930 px): the
 * phone sits under the e-mail, the month's runs under the credits, two-factor under "Verified".
 * Narrower still, each row is a stack of its cells (DataTable).
 */
export function UsersTable({ users, plans, adminId }: { users: UserRow[]; plans: PlanOption[]; adminId: string }) {
  return (
    <DataTable caption="Users" headers={HEADERS} stack="lg" className="[&_td]:px-2 [&_th]:px-2">
      {users.length === 0 ? <EmptyRow colSpan={HEADERS.length}>No users found</EmptyRow> : null}
      {users.map((user) => (
        <tr key={user.id} className="border-b align-top last:border-0">
          <td data-label="User ID" className="py-2 font-mono text-xs text-muted-foreground" title={user.id}>
            {user.id.slice(0, 8)}
          </td>
          <td data-label="Email" className="max-w-52 py-2 [overflow-wrap:anywhere]">
            {user.email}
            {user.role === 'admin' ? (
              <span className="ml-2 rounded border px-1.5 text-xs whitespace-nowrap text-muted-foreground">admin</span>
            ) : null}
            {user.suspension ? (
              <span className="ml-2 rounded border border-destructive/50 px-1.5 text-xs whitespace-nowrap text-destructive">Suspended</span>
            ) : null}
            {user.deletionOn ? (
              <span className="ml-2 rounded border border-destructive/50 px-1.5 text-xs whitespace-nowrap text-destructive">
                Deletion on {user.deletionOn}
              </span>
            ) : null}
            {user.phone ? muted(`Phone ${user.phone}`) : null}
            {user.suspension ? muted(`Since ${user.suspension.since}: ${user.suspension.reason}`) : null}
          </td>
          <td data-label="Name" className="max-w-32 py-2 [overflow-wrap:anywhere]">
            {user.name || <span className="text-muted-foreground">—</span>}
          </td>
          <td data-label="Plan" className="py-2">
            <PlanSelect user={user} plans={plans} />
          </td>
          <td data-label="Credits" className="py-2">
            <CreditsInput user={user} />
            {muted(user.runsThisMonth === 1 ? '1 run this month' : `${user.runsThisMonth} runs this month`)}
          </td>
          <td data-label="Verified" className="py-2">
            {user.verified ? 'Yes' : 'No'}
            {muted(`2FA ${user.twoFactor ? 'on' : 'off'}`)}
            {user.passkeys ? muted(user.passkeys === 1 ? '1 passkey' : `${user.passkeys} passkeys`) : null}
          </td>
          <td data-label="Last Login" className="py-2">
            {user.lastLogin}
          </td>
          <td data-label="Created" className="py-2">
            {user.created}
          </td>
          <td data-label="Actions" className="py-2">
            <RowActions user={user} plans={plans} isSelf={user.id === adminId} />
          </td>
        </tr>
      ))}
    </DataTable>
  )
}

/** The plan select saves as soon as it changes ('Plan updated' / 'Error updating plan'). */
function PlanSelect({ user, plans }: { user: UserRow; plans: PlanOption[] }) {
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data)
  const pending = fetcher.formData?.get('plan')
  const known = plans.some((plan) => plan.slug === user.plan)
  return (
    <Select
      aria-label={`Plan of ${user.email}`}
      value={typeof pending === 'string' ? pending : user.plan}
      disabled={fetcher.state !== 'idle'}
      onChange={(event) => fetcher.submit({ intent: 'update-plan', userId: user.id, plan: event.target.value }, { method: 'post' })}
      className="h-9 min-w-28"
    >
      {known ? null : <option value={user.plan}>{user.plan}</option>}
      {plans.map((plan) => (
        <option key={plan.slug} value={plan.slug}>
          {plan.name}
        </option>
      ))}
    </Select>
  )
}

/** Credits: a whole number, 0 or more, saved when the field loses focus and it changed. */
function CreditsInput({ user }: { user: UserRow }) {
  const fetcher = useFetcher<ActionResult>()
  const [value, setValue] = useState(String(user.credits))
  const [shown, setShown] = useState(user.credits)
  // The balance last known to be stored: the table's, or this field's last save. A refused value
  // falls back to it, not to the table's row, which may still be an older reload's.
  const [stored, setStored] = useState(user.credits)
  const submitted = useRef(user.credits)
  if (shown !== user.credits) {
    setShown(user.credits)
    // A newly stored balance replaces the field, unless the admin has typed since the last one known.
    if (value === String(stored)) setValue(String(user.credits))
    setStored(user.credits)
  }
  useActionToast(fetcher.data, {
    success: () => setStored(submitted.current),
    error: () => setValue(String(stored)),
  })
  function save() {
    const parsed = Number.parseInt(value, 10)
    const credits = Number.isNaN(parsed) ? 0 : Math.max(0, parsed)
    setValue(String(credits))
    if (credits === stored) return
    submitted.current = credits
    fetcher.submit({ intent: 'update-credits', userId: user.id, credits: String(credits) }, { method: 'post' })
  }
  return (
    <Input
      type="number"
      inputMode="numeric"
      min={0}
      step={1}
      aria-label={`Credits of ${user.email}`}
      value={value}
      onChange={(event) => setValue(event.target.value)}
      onBlur={save}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.currentTarget.blur()
      }}
      className="h-9 w-20"
    />
  )
}

function RowActions({ user, plans, isSelf }: { user: UserRow; plans: PlanOption[]; isSelf: boolean }) {
  return (
    <div className="grid w-max grid-cols-2 gap-1">
      <SendEmailDialog
        user={user}
        trigger={
          <Button variant="ghost" size="icon" aria-label={`Send Email to ${user.email}`} title="Send Email">
            <Mail aria-hidden="true" />
          </Button>
        }
      />
      <EditUserDialog
        user={user}
        plans={plans}
        isSelf={isSelf}
        trigger={
          <Button variant="ghost" size="icon" aria-label={`Edit User ${user.email}`} title="Edit User">
            <Pencil aria-hidden="true" />
          </Button>
        }
      />
      {user.twoFactor || user.passkeys ? (
        <ConfirmAction
          label={<ShieldOff aria-hidden="true" />}
          triggerProps={{
            variant: 'ghost',
            size: 'icon',
            'aria-label': `Reset two-factor of ${user.email}`,
            title: 'Reset two-factor sign-in',
          }}
          title={`Reset two-factor sign-in of ${user.email}?`}
          description="Their authenticator app and recovery codes stop working and their passkeys are removed: their password alone signs them in until they set it up again. Do this only after checking it is really them. The audit log records that you did it."
          confirmLabel="Reset Two-Factor"
          fields={{ intent: 'reset-two-factor', userId: user.id }}
          destructive
        />
      ) : null}
      {user.verified ? null : (
        <ConfirmAction
          label={<MailCheck aria-hidden="true" />}
          triggerProps={{
            variant: 'ghost',
            size: 'icon',
            'aria-label': `Resend verification to ${user.email}`,
            title: 'Resend verification',
          }}
          title={`Send ${user.email} the verification link again?`}
          description="They get a new “Verify your e-mail address” mail. The audit log records that you did it."
          confirmLabel="Send Link"
          fields={{ intent: 'resend-verification', userId: user.id }}
        />
      )}
      {/* Their own sessions end from Settings, where signing out is expected. */}
      {isSelf ? null : (
        <ConfirmAction
          label={<LogOut aria-hidden="true" />}
          triggerProps={{ variant: 'ghost', size: 'icon', 'aria-label': `Sign out ${user.email} everywhere`, title: 'Sign out everywhere' }}
          title={`Sign ${user.email} out everywhere?`}
          description="Every browser and app they are signed in to is signed out at once; they sign in again with their password. Their API keys and connected devices keep working. The audit log records that you did it."
          confirmLabel="Sign Out Everywhere"
          fields={{ intent: 'sign-out-everywhere', userId: user.id }}
        />
      )}
      {/* Nobody suspends themselves or an admin (demote them first). */}
      {isSelf || user.role === 'admin' ? null : user.suspension ? (
        <ConfirmAction
          label={<UserCheck aria-hidden="true" />}
          triggerProps={{ variant: 'ghost', size: 'icon', 'aria-label': `Unsuspend ${user.email}`, title: 'Unsuspend' }}
          title={`Unsuspend ${user.email}?`}
          description="They can sign in again, and their API keys, connected devices, trigger URLs and schedules work again. Runs stopped by the suspension stay stopped. The audit log records that you did it."
          confirmLabel="Unsuspend"
          fields={{ intent: 'unsuspend-user', userId: user.id }}
        />
      ) : (
        <SuspendUserDialog
          user={user}
          trigger={
            <Button variant="ghost" size="icon" aria-label={`Suspend ${user.email}`} title="Suspend">
              <Ban aria-hidden="true" />
            </Button>
          }
        />
      )}
      {/* Not oneself; an admin or a suspended member opens the dialog to say why not (docs/decisions/064). */}
      {isSelf ? null : (
        <ViewAsDialog
          user={user}
          trigger={
            <Button variant="ghost" size="icon" aria-label={`View as ${user.email}`} title="View as member">
              <Eye aria-hidden="true" />
            </Button>
          }
        />
      )}
      <Button asChild variant="ghost" size="icon">
        <Link to={`/admin/users/${user.id}`} aria-label={`Timeline of ${user.email}`} title="Timeline">
          <ListTree aria-hidden="true" />
        </Link>
      </Button>
      <ConfirmAction
        label={<Trash2 aria-hidden="true" />}
        triggerProps={{
          variant: 'ghost',
          size: 'icon',
          'aria-label': `Delete User ${user.email}`,
          title: 'Delete User',
          className: 'text-destructive hover:text-destructive',
        }}
        title={`Delete ${user.email}?`}
        description="The account, its sessions, payments and credit history are deleted. This cannot be undone."
        confirmLabel="Delete User"
        fields={{ intent: 'delete-user', userId: user.id }}
        destructive
      />
    </div>
  )
}
