import { format } from 'date-fns'
import { data, useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/workspace-vault'
import { VaultCard, type VaultProblem, type VaultView } from '#app/features/vault/vault-card.tsx'
import { actionResult, type ActionResult } from '#app/lib/action-result.server.ts'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { parseInput } from '#app/features/admin/parse-input.server.ts'
import { hasRole } from '#common/workspaces.ts'
import {
  secretPlaceholder,
  VAULT_USE_ROLES,
  unconfirmedSitesLapsed,
  unconfirmedSitesUntil,
  vaultSecretConfirmFormSchema,
  vaultSecretCreateFormSchema,
  vaultSecretReplaceSchema,
  vaultSecretRulesFormSchema,
} from '#common/vault.ts'

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const caller = pageCaller(user)
  const { vault, plans } = context.services
  const [secrets, allowances] = await Promise.all([vault.list(caller.workspace.id), plans.allowancesOf(caller.workspace.id)])
  const canChange = hasRole(caller.workspace.role, 'member')
  const view: VaultView = {
    workspaceName: user.workspace?.kind === 'team' ? user.workspace.name : 'your personal workspace',
    secrets: secrets.map((secret) => ({
      id: secret.id,
      name: secret.name,
      kind: secret.kind,
      placeholder: secretPlaceholder(secret.kind, secret.name),
      updatedLabel: format(secret.updatedAt, 'MMM d, yyyy'),
      origins: secret.origins,
      useRole: secret.useRole,
      originsSetFromSteps: secret.originsFromStepsAt !== null,
      unconfirmedUntilLabel: secret.originsFromStepsAt ? format(unconfirmedSitesUntil(secret.originsFromStepsAt), 'MMM d, yyyy') : null,
      unconfirmedLapsed: unconfirmedSitesLapsed(secret.originsFromStepsAt),
      canChange: canChange && hasRole(caller.workspace.role, secret.useRole),
    })),
    canChange,
    roleChoices: VAULT_USE_ROLES.filter((role) => hasRole(caller.workspace.role, role)),
    limit: allowances.vaultSecrets,
    planName: allowances.plan,
  }
  return { view, formKey: secrets.length }
}

const RULES_INTENT = /^secret-rules-([0-9a-f-]{36})$/
const CONFIRM_INTENT = /^confirm-sites-([0-9a-f-]{36})$/

export async function action({ request, context }: Route.ActionArgs) {
  const caller = pageCaller(requireMember(context))
  const form = await request.formData()
  const intent = String(form.get('intent'))
  const { vault } = context.services
  if (intent === 'add-secret') {
    return actionResult(
      () =>
        vault.create(
          caller,
          parseInput(vaultSecretCreateFormSchema, {
            name: form.get('name'),
            kind: form.get('kind'),
            value: form.get('value') ?? '',
            origins: form.get('origins') ?? '',
            useRole: form.get('useRole') ?? undefined,
          }),
        ),
      {
        intent,
        success: (secret) => ({
          title: 'Secret saved',
          description: `Steps can type it as ${secretPlaceholder(secret.kind, secret.name)} on ${secret.origins.join(', ')}.`,
        }),
        error: 'Error saving secret',
      },
    )
  }
  const rules = RULES_INTENT.exec(intent)
  if (rules) {
    const id = rules[1] ?? ''
    return actionResult(
      () =>
        vault.setRules(
          caller,
          id,
          parseInput(vaultSecretRulesFormSchema, {
            origins: form.get('origins') ?? '',
            useRole: form.get('useRole'),
            value: form.get('value') ?? undefined,
          }),
        ),
      {
        intent,
        success: (secret) => ({
          title: 'Sites and roles saved',
          description: `${secret.name} is typed only on ${secret.origins.join(', ')}.`,
        }),
        error: 'Error saving sites and roles',
      },
    )
  }
  // "These sites are right": the sites stay as they are (nothing the form sends can add one); the value proves who vouches for them.
  const confirm = CONFIRM_INTENT.exec(intent)
  if (confirm) {
    const id = confirm[1] ?? ''
    return actionResult(
      () => vault.setRules(caller, id, { value: parseInput(vaultSecretConfirmFormSchema, { value: form.get('value') ?? '' }).value }),
      {
        intent,
        success: (secret) => ({ title: 'Sites confirmed', description: `${secret.name} is typed only on ${secret.origins.join(', ')}.` }),
        error: 'Error confirming sites',
      },
    )
  }
  if (intent === 'replace-secret') {
    const id = String(form.get('id') ?? '').slice(0, 100)
    return actionResult(() => vault.replace(caller, id, parseInput(vaultSecretReplaceSchema, { value: form.get('value') ?? '' }).value), {
      intent,
      success: (secret) => ({ title: 'Secret replaced', description: `${secret.name} has its new value.` }),
      error: 'Error replacing secret',
    })
  }
  if (intent === 'delete-secret') {
    const id = String(form.get('id') ?? '').slice(0, 100)
    return actionResult(() => vault.remove(caller, id), { intent, success: { title: 'Secret deleted' }, error: 'Error deleting secret' })
  }
  throw data('Unknown action', { status: 400 })
}

export const meta = privatePageMeta('Vault')

export default function WorkspaceVaultPage() {
  const { view, formKey } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>() as ActionResult | undefined
  useActionToast(answer)
  const problem: VaultProblem | null =
    answer && !answer.ok && answer.intent
      ? { intent: answer.intent, field: answer.field, message: answer.error.description ?? answer.error.title }
      : null
  return (
    <main className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Vault</h1>
      <VaultCard view={view} formKey={formKey} problem={problem} />
    </main>
  )
}
