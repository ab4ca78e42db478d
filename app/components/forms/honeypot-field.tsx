import { HONEYPOT_FIELD } from '#common/inquiry-fields.ts'

/** Bots fill every field; people never see this one. The server refuses a filled one. */
export function HoneypotField({ id }: { id: string }) {
  return (
    <div className="sr-only" aria-hidden="true">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  )
}
