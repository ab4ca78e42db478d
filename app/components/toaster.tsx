import { useEffect } from 'react'
import * as sonner from 'sonner'
import { toasterReady } from '#app/lib/toast.ts'
import type { Theme } from '#common/settings.ts'

/** sonner's Toaster with the spec's numbers: Alt+T, region 'Notifications', 3 visible, 4000 ms. */
export default function Toaster({ theme }: { theme: Theme }) {
  // Runs after the Toaster's own effect has subscribed to toasts, so none is lost.
  useEffect(() => toasterReady(sonner), [])
  return (
    <sonner.Toaster
      hotkey={['altKey', 'KeyT']}
      containerAriaLabel="Notifications"
      visibleToasts={3}
      duration={4000}
      richColors
      theme={theme}
    />
  )
}
