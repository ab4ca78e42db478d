import { useId, useState } from 'react'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { cn } from '#app/lib/cn.ts'
import { describeAlternative, type TargetAlternative } from '#common/targets.ts'
import type { Inspection } from '#server/features/planning/inspector.ts'

type Element = Inspection['elements'][number]

const percent = (part: number, whole: number) => `${Math.max(0, Math.min(100, (part / whole) * 100))}%`
const wordsOf = (element: Element) => describeAlternative(element.target[0] as TargetAlternative)

/**
 * An inspected page to point at: its screenshot with every element on it as a box to click, and
 * the same elements as a list (the keyboard's way in, with a filter). Picking one calls `onPick`.
 */
export function ElementPicker({
  inspection,
  picked,
  onPick,
}: {
  inspection: Inspection
  picked: number | null
  onPick: (ref: number) => void
}) {
  const id = useId()
  const [filter, setFilter] = useState('')
  const [everything, setEverything] = useState(false)
  const { screenshot } = inspection
  const onScreenshot = inspection.elements.filter(
    (element) => element.box.y < screenshot.height && element.box.x < screenshot.width && element.box.width > 0,
  )
  const wanted = filter.trim().toLowerCase()
  const listed = inspection.elements.filter(
    (element) =>
      (everything || element.interactive) &&
      (!wanted || [wordsOf(element), element.name, element.label, element.text].some((text) => text?.toLowerCase().includes(wanted))),
  )
  return (
    <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
      <div className="max-h-[36rem] overflow-auto rounded-md border">
        <div className="relative" style={{ aspectRatio: `${screenshot.width} / ${screenshot.height}` }}>
          <img
            src={screenshot.dataUrl}
            alt={`Screenshot of ${inspection.title || inspection.url}`}
            className="absolute inset-0 size-full"
          />
          {onScreenshot.map((element) => (
            <button
              key={element.ref}
              type="button"
              // The list is the keyboard's way to the same elements.
              tabIndex={-1}
              title={wordsOf(element)}
              aria-label={`Pick ${wordsOf(element)}`}
              onClick={() => onPick(element.ref)}
              className={cn(
                'absolute rounded-sm border transition-colors hover:border-primary hover:bg-primary/15',
                element.interactive ? 'border-primary/40' : 'border-transparent',
                picked === element.ref && 'border-2 border-primary bg-primary/20',
              )}
              style={{
                left: percent(element.box.x, screenshot.width),
                top: percent(element.box.y, screenshot.height),
                width: percent(element.box.width, screenshot.width),
                height: percent(element.box.height, screenshot.height),
              }}
            />
          ))}
        </div>
      </div>
      <div className="space-y-2">
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-filter`}>Find an element</Label>
          <Input
            id={`${id}-filter`}
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            placeholder="Sign in, Email, Price…"
          />
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={everything}
            onChange={(event) => setEverything(event.target.checked)}
          />
          Show text and headings too
        </label>
        <ul aria-label="Elements on the page" className="max-h-[28rem] space-y-1 overflow-y-auto">
          {listed.length === 0 ? <li className="text-sm text-muted-foreground">No element matches.</li> : null}
          {listed.map((element) => (
            <li key={element.ref}>
              <button
                type="button"
                aria-pressed={picked === element.ref}
                onClick={() => onPick(element.ref)}
                className={cn(
                  'w-full rounded-md border px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  picked === element.ref && 'border-primary bg-primary/10',
                )}
              >
                {wordsOf(element)}
                {element.text && element.text !== element.name && !element.interactive ? (
                  <span className="block truncate text-xs text-muted-foreground">{element.text}</span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
        {inspection.truncated ? (
          <p className="text-xs text-muted-foreground">The page has more elements than an inspection lists.</p>
        ) : null}
      </div>
    </div>
  )
}
