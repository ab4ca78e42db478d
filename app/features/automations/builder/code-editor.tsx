import { useEffect, useRef, useState, type ComponentProps } from 'react'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { cn } from '#app/lib/cn.ts'

type TextareaProps = Omit<ComponentProps<'textarea'>, 'onChange' | 'value'> & { value: string; onChange: (value: string) => void }

/**
 * A JavaScript field with syntax highlighting (CodeMirror 6). The page first shows a plain text
 * area, which is what works without JavaScript and what the label names; once the editor's code
 * has loaded (only on a page that has a script step) the editor takes its place, labelled the
 * same, with the same value. Tab is left to move the focus on, as everywhere else in the builder.
 */
export function CodeEditor({ id, value, onChange, className, ...rest }: TextareaProps) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<{ setValue(value: string): void; destroy(): void } | null>(null)
  const latest = useRef(onChange)
  const [ready, setReady] = useState(false)
  useEffect(() => {
    latest.current = onChange
  })

  useEffect(() => {
    let cancelled = false
    void loadEditor().then(({ create }) => {
      if (cancelled || !host.current) return
      view.current = create(host.current, value, (next) => latest.current(next), {
        labelledBy: `${id}-label`,
        describedBy: rest['aria-describedby'],
      })
      setReady(true)
    })
    return () => {
      cancelled = true
      view.current?.destroy()
      view.current = null
    }
    // The editor is made once; later values come in below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => view.current?.setValue(value), [value])

  return (
    <>
      <Textarea
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        spellCheck={false}
        className={cn('font-mono text-xs', ready && 'sr-only', className)}
        tabIndex={ready ? -1 : undefined}
        aria-hidden={ready ? true : undefined}
        {...rest}
      />
      <div ref={host} className={cn('overflow-hidden rounded-md border text-xs', !ready && 'hidden')} data-code-editor="" />
    </>
  )
}

/** CodeMirror, fetched the first time a script step is shown. */
function loadEditor() {
  return import('./code-editor-view.ts')
}
