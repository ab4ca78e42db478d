import { Copy } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { toast } from '#app/lib/toast.ts'

/** A secret the server shows only once (a new API key, a trigger URL), with a Copy button. */
export function ShownOnce({
  title,
  note,
  label,
  value,
  children,
}: {
  title: ReactNode
  note: string
  /** The field's accessible name ('New API key'). */
  label: string
  value: string
  children?: ReactNode
}) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(true)
      toast.success('Copied')
    } catch {
      toast.error('Could not copy it', { description: 'Select it and copy it by hand.' })
    }
  }
  return (
    <div role="status" className="space-y-2 rounded-md border border-primary/40 bg-primary/5 p-4">
      <p className="text-sm font-medium">{title}</p>
      <p className="text-sm text-muted-foreground">{note}</p>
      <div className="flex gap-2">
        <Input readOnly value={value} aria-label={label} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
        <Button type="button" variant="outline" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      {children}
    </div>
  )
}
