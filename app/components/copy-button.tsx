import { Copy } from 'lucide-react'
import { useState } from 'react'
import { Button } from '#app/components/ui/button.tsx'
import { toast } from '#app/lib/toast.ts'

/** Copies `value` to the clipboard; says so, or how to copy it by hand when the browser refuses. */
export function CopyButton({ value, what, label = 'Copy' }: { value: string; what?: string; label?: string }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(true)
      toast.success(what ? `${what} copied` : 'Copied')
    } catch {
      toast.error(`Could not copy ${what ? `the ${what.toLowerCase()}` : 'it'}`, { description: 'Select it and copy it by hand.' })
    }
  }
  return (
    <Button type="button" variant="outline" onClick={() => void copy()}>
      <Copy aria-hidden="true" />
      {copied ? 'Copied' : label}
    </Button>
  )
}
