import type { ReactNode } from 'react'
import { CopyButton } from '#app/components/copy-button.tsx'
import { Input } from '#app/components/ui/input.tsx'

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
  return (
    <div role="status" className="space-y-2 rounded-md border border-primary/40 bg-primary/5 p-4">
      <p className="text-sm font-medium">{title}</p>
      <p className="text-sm text-muted-foreground">{note}</p>
      <div className="flex gap-2">
        <Input readOnly value={value} aria-label={label} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
        <CopyButton value={value} />
      </div>
      {children}
    </div>
  )
}
