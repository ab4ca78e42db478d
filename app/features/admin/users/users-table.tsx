import { Mail, Pencil, ShieldOff, Trash2 } from 'lucide-react'
import { useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { DataTable, EmptyRow } from '#app/components/data-table.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { EditUserDialog } from './edit-user-dialog.tsx'
import { SendEmailDialog } from './send-email-dialog.tsx'

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
}

export interface PlanOption {
  slug: string
  name: string
}

const HEADERS = [
  'User ID',
  'Email',
  'Phone',
  'Name',
  'Plan',
  'Credits',
  'Runs (month)',
  'Verified',
  '2FA',
  'Last Login',
  'Created',
  'Actions',
]

export function UsersTable({ users, plans, adminId }: { users: UserRow[]; plans: PlanOption[]; adminId: string }) {
  return (
    <DataTable caption="Users" headers={HEADERS}>
      {users.length === 0 ? <EmptyRow colSpan={HEADERS.length}>No users found</EmptyRow> : null}
      {users.map((user) => (
        <tr key={user.id} className="border-b last:border-0">
          <td className="px-3 py-2 font-mono text-xs text-muted-foreground" title={user.id}>
            {user.id.slice(0, 8)}
          </td>
          <td className="px-3 py-2">
            {user.email}
            {user.role === 'admin' ? <span className="ml-2 rounded border px-1.5 text-xs text-muted-foreground">admin</span> : null}
          </td>
          <td className="px-3 py-2 whitespace-nowrap tabular-nums">{user.phone ?? <span className="text-muted-foreground">—</span>}</td>
          <td className="px-3 py-2">{user.name || <span className="text-muted-foreground">—</span>}</td>
          <td className="px-3 py-2">
            <PlanSelect user={user} plans={plans} />
          </td>
          <td className="px-3 py-2">
            <CreditsInput user={user} />
          </td>
          <td className="px-3 py-2 tabular-nums">{user.runsThisMonth}</td>
          <td className="px-3 py-2">{user.verified ? 'Yes' : 'No'}</td>
          <td className="px-3 py-2 whitespace-nowrap">
            {user.twoFactor ? 'On' : 'Off'}
            {user.passkeys ? (
              <span className="text-muted-foreground"> · {user.passkeys === 1 ? '1 passkey' : `${user.passkeys} passkeys`}</span>
            ) : null}
          </td>
          <td className="px-3 py-2 whitespace-nowrap">{user.lastLogin}</td>
          <td className="px-3 py-2 whitespace-nowrap">{user.created}</td>
          <td className="px-3 py-2">
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
      className="h-9 w-28"
    />
  )
}

function RowActions({ user, plans, isSelf }: { user: UserRow; plans: PlanOption[]; isSelf: boolean }) {
  return (
    <div className="flex items-center gap-1">
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
