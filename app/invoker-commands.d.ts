// Invoker commands (a button that opens or closes a dialog by itself, with no script): React sets
// the attributes as written; its types do not list them yet.
import 'react'

declare module 'react' {
  // The type parameter is React's own; a merged declaration must repeat it.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    commandfor?: string
    command?: 'show-modal' | 'close' | 'request-close' | 'show-popover' | 'hide-popover' | 'toggle-popover'
  }
}
