import type { SubmissionResult } from '@conform-to/react'
import { Form, Link, useNavigation } from 'react-router'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { ACCOUNT_DELETION_GRACE_DAYS } from '#common/account-data.ts'

/** How the member confirms a deletion, and what stands in its way (docs/decisions/065). */
export interface DeletionState {
  hasPassword: boolean
  twoFactorEnabled: boolean
  teamsToTransfer: string[]
  lastAdmin: boolean
  /** The token of the e-mailed confirmation link the member came from (accounts without a password). */
  linkToken: string | null
}

const errorsOf = (result: SubmissionResult<string[]> | undefined, field: string) => result?.error?.[field] ?? undefined

/** What stops the deletion until the member acts: their teams' ownership, or being the last admin. */
function Blocked({ state }: { state: DeletionState }) {
  const teams = state.teamsToTransfer
  return (
    <div role="alert" className="space-y-2 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
      {teams.length ? (
        <p>
          You are the only owner of {teams.length === 1 ? 'the team workspace' : 'the team workspaces'} {teams.join(', ')}, where others
          still work. Make another member its owner, or remove them, before deleting your account.{' '}
          <Link to="/workspace" className="text-primary underline-offset-4 hover:underline">
            Open Team
          </Link>
        </p>
      ) : null}
      {state.lastAdmin ? <p>You are the last admin: make someone else an admin before deleting your account.</p> : null}
    </div>
  )
}

/**
 * The danger zone's "Delete my account" (docs/decisions/065): confirmed with the password (or an
 * authenticator code), or for an account without a password through an e-mailed link. The account
 * is erased ACCOUNT_DELETION_GRACE_DAYS later; signing in before then cancels it. A plain form.
 */
export function DeleteAccountCard({ state, lastResult }: { state: DeletionState; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'delete-account'
  const blocked = state.teamsToTransfer.length > 0 || state.lastAdmin
  const formErrors = errorsOf(lastResult, '')
  return (
    <Card id="delete-account" className="scroll-mt-20 border-destructive/50">
      <CardHeader>
        <CardTitle level={2} className="text-destructive">
          Danger zone: delete my account
        </CardTitle>
        <CardDescription>
          We sign you out everywhere at once, stop your runs, API keys, devices, trigger URLs and schedules, and erase your account{' '}
          {ACCOUNT_DELETION_GRACE_DAYS} days later: your profile, your personal workspace and the team workspaces only you are in, with
          their automations, runs and files; their subscriptions are cancelled. Signing in before then cancels the deletion. Want a copy?
          Download your data first.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {blocked ? <Blocked state={state} /> : null}
        <Form method="post" className="space-y-4" aria-label="Delete my account">
          <input type="hidden" name="intent" value="delete-account" />
          {state.linkToken ? (
            <>
              <input type="hidden" name="token" value={state.linkToken} />
              <p className="text-sm">You followed the link from our e-mail. Confirm to delete your account.</p>
              <FieldError id="delete-account-token-error" errors={errorsOf(lastResult, 'token')} />
            </>
          ) : state.hasPassword ? (
            <>
              <div className="space-y-2">
                <Label htmlFor="delete-account-password">Password</Label>
                <Input
                  id="delete-account-password"
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required={!state.twoFactorEnabled}
                  aria-describedby="delete-account-password-error"
                />
                <FieldError id="delete-account-password-error" errors={errorsOf(lastResult, 'password')} />
              </div>
              {state.twoFactorEnabled ? (
                <div className="space-y-2">
                  <Label htmlFor="delete-account-code">Or a code from your authenticator app</Label>
                  <Input
                    id="delete-account-code"
                    name="code"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    aria-describedby="delete-account-code-error"
                  />
                  <FieldError id="delete-account-code-error" errors={errorsOf(lastResult, 'code')} />
                </div>
              ) : null}
            </>
          ) : (
            <p className="text-sm text-muted-foreground">
              Your account has no password: we e-mail you a link, and the deletion waits until you confirm it there.
            </p>
          )}
          <FieldError id="delete-account-error" errors={formErrors} />
          <Button type="submit" variant="destructive" disabled={busy || blocked}>
            {busy ? 'Please wait' : state.hasPassword || state.linkToken ? 'Delete my account' : 'E-mail me a confirmation link'}
          </Button>
        </Form>
      </CardContent>
    </Card>
  )
}
