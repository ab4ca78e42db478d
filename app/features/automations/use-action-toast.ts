import { useEffect } from 'react'
import { toast } from '#app/lib/toast.ts'
import type { ActionResult } from './action-result.server.ts'

/** Shows an action's toast once per answer. */
export function useActionToast(result: ActionResult | undefined) {
  useEffect(() => {
    if (!result) return
    if (result.ok) toast.success(result.toast.title, { description: result.toast.description })
    else toast.error(result.error.title, { description: result.error.description })
  }, [result])
}
