import { format } from 'date-fns'
import { data, useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/workspace-vault'
import { VaultCard, type VaultView } from '#app/features/vault/vault-card.tsx'
import { actionResult, type ActionResult } from '#app/lib/action-result.server.ts'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { parseInput } from '#app/features/admin/parse-input.server.ts'
import { hasRole } from '#common/workspaces.ts'
import { secretPlaceholder, vaultSecretCreateSchema, vaultSecretReplaceSchema } from '#common/vault.ts'

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const caller = pageCaller(user)
  const { vault, plans } = context.services
  const [secrets, allowances] = await Promise.all([vault.list(caller.workspace.id), plans.allowancesOf(caller.workspace.id)])
  const view: VaultView = {
    workspaceName: user.workspace?.kind === 'team' ? user.workspace.name : 'your personal workspace',
    secrets: secrets.map((secret) => ({
      id: secret.id,
      name: secret.name,
      kind: secret.kind,
      placeholder: secretPlaceholder(secret.kind, secret.name),
      updatedLabel: format(secret.updatedAt, 'MMM d, yyyy'),
    })),
    canChange: hasRole(caller.workspace.role, 'member'),
    limit: allowances.vaultSecrets,
    planName: allowances.plan,
  }
  return { view, formKey: secrets.length }
}

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
          parseInput(vaultSecretCreateSchema, { name: form.get('name'), kind: form.get('kind'), value: form.get('value') ?? '' }),
        ),
      {
        intent,
        success: (secret) => ({
          title: 'Secret saved',
          description: `Steps can use it as ${secretPlaceholder(secret.kind, secret.name)}.`,
        }),
        error: 'Error saving secret',
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
  useActionToast(useActionData<typeof action>() as ActionResult | undefined)
  return (
    <main className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Vault</h1>
      <VaultCard view={view} formKey={formKey} />
    </main>
  )
}
