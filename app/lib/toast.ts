import type * as SonnerModule from 'sonner'

type Sonner = typeof SonnerModule
type ToastOptions = { description?: string }

// sonner is not in any page's first JavaScript: the Toaster is loaded after hydration and
// announces itself here; toasts raised before that wait for it (docs/decisions/008-page-weight.md).
let announce: (sonner: Sonner) => void = () => {}
const toaster = new Promise<Sonner>((resolve) => {
  announce = resolve
})

/** Called by the lazily loaded Toaster once it listens for toasts. */
export function toasterReady(sonner: Sonner) {
  announce(sonner)
}

function show(kind: 'message' | 'success' | 'error' | 'info', title: string, options?: ToastOptions) {
  void toaster.then(({ toast }) => (kind === 'message' ? toast(title, options) : toast[kind](title, options)))
}

export const toast = Object.assign((title: string, options?: ToastOptions) => show('message', title, options), {
  success: (title: string, options?: ToastOptions) => show('success', title, options),
  error: (title: string, options?: ToastOptions) => show('error', title, options),
  info: (title: string, options?: ToastOptions) => show('info', title, options),
})
