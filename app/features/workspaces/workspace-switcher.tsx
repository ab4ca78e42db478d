import { Users } from 'lucide-react'
import { Form, useSubmit } from 'react-router'

export interface WorkspaceChoice {
  id: string
  name: string
  kind: 'personal' | 'team'
}

/**
 * Which workspace the member works in: a form that posts the choice (it works without JavaScript
 * through its button; with it, choosing is enough).
 */
export function WorkspaceSwitcher({ workspaces, current }: { workspaces: WorkspaceChoice[]; current: string }) {
  const submit = useSubmit()
  return (
    <Form method="post" action="/workspace/switch" className="flex items-center gap-2 px-3 pb-3">
      <Users className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <label htmlFor="workspace-switch" className="sr-only">
        Workspace
      </label>
      <select
        id="workspace-switch"
        name="workspaceId"
        defaultValue={current}
        key={current}
        onChange={(event) => submit(event.currentTarget.form)}
        className="h-9 w-full min-w-0 rounded-md border bg-background px-2 text-sm"
      >
        {workspaces.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.kind === 'personal' ? 'Personal' : workspace.name}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="rounded-md border px-2 py-1 text-xs">
          Switch
        </button>
      </noscript>
    </Form>
  )
}
