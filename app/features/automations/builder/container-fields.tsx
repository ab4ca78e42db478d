import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { CONTAINER_KINDS, type ContainerKind } from '#common/target-containers.ts'

type Alternative = Record<string, unknown>

const KIND_LABELS: Record<ContainerKind, string> = {
  row: 'the table row showing',
  item: 'the list item showing',
  card: 'the card showing',
  dialog: 'the dialog',
  form: 'the form',
  section: 'the section under the heading',
  near: 'next to the text',
}

/**
 * Where the element sits and which match it is (docs/decisions/042): 'in the row showing
 * Invoice 42', 'the 2nd'. For ways by words; both optional, left empty they are left out.
 */
export function ContainerFields({
  id,
  alternative,
  onChange,
}: {
  id: string
  alternative: Alternative
  onChange: (next: Alternative) => void
}) {
  const within = typeof alternative.within === 'object' && alternative.within !== null ? (alternative.within as Alternative) : null
  const kind = typeof within?.kind === 'string' ? within.kind : ''
  const text = typeof within?.text === 'string' ? within.text : ''
  const { within: _within, nth: _nth, ...own } = alternative
  const set = (nextWithin: Alternative | null, nth: unknown) =>
    onChange({ ...own, ...(nextWithin ? { within: nextWithin } : {}), ...(nth === undefined ? {} : { nth }) })
  return (
    <div className="flex flex-wrap gap-2 sm:col-span-3">
      <div className="space-y-1">
        <Label htmlFor={`${id}-within`} className="text-xs">
          Inside
        </Label>
        <Select
          id={`${id}-within`}
          value={kind}
          onChange={(event) => set(event.target.value ? { ...within, kind: event.target.value, text } : null, alternative.nth)}
        >
          <option value="">anywhere on the page</option>
          {CONTAINER_KINDS.map((option) => (
            <option key={option} value={option}>
              {KIND_LABELS[option]}
            </option>
          ))}
        </Select>
      </div>
      {kind ? (
        <div className="min-w-40 flex-1 space-y-1">
          <Label htmlFor={`${id}-within-text`} className="text-xs">
            Text it shows
          </Label>
          <Input
            id={`${id}-within-text`}
            value={text}
            placeholder="Invoice 42"
            autoComplete="off"
            onChange={(event) => {
              const { text: _text, ...rest } = within ?? {}
              set(event.target.value === '' ? { ...rest, kind } : { ...rest, kind, text: event.target.value }, alternative.nth)
            }}
          />
        </div>
      ) : null}
      <div className="w-28 space-y-1">
        <Label htmlFor={`${id}-nth`} className="text-xs">
          Which one (1, 2…)
        </Label>
        <Input
          id={`${id}-nth`}
          type="number"
          min={1}
          value={typeof alternative.nth === 'number' ? String(alternative.nth) : ''}
          placeholder="only one"
          onChange={(event) => set(within, event.target.value === '' ? undefined : Number(event.target.value))}
        />
      </div>
    </div>
  )
}
