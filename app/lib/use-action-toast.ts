import { useEffect } from 'react'
import { toast } from '#app/lib/toast.ts'
import type { ActionResult } from '#app/lib/action-result.server.ts'

/** Shows an action's toast once per answer (success or error), then calls back if asked. */
export function useActionToast(
  result: ActionResult | undefined,
  on: { success?: (result: Extract<ActionResult, { ok: true }>) => void; error?: () => void } = {},
) {
  useEffect(() => {
    if (!result) return
    if (result.ok) {
      toast.success(result.toast.title, { description: result.toast.description })
      on.success?.(result)
    } else {
      toast.error(result.error.title, { description: result.error.description })
      on.error?.()
    }
    // Only a new answer shows a toast; the callbacks are not triggers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result])
}
