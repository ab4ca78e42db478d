import { CloudUpload } from 'lucide-react'
import { useId, useState } from 'react'
import { Form, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#app/components/ui/dialog.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { MAX_INPUT_LENGTH } from '#common/run-inputs.ts'
import { DataRowsField } from './data-rows/data-rows-field.tsx'

/** The form field that carries an input's value: `input.<name>` (docs/decisions/027). */
export const INPUT_FIELD_PREFIX = 'input.'

/**
 * "Run in cloud" of My Automations: posts at once, or, for an automation whose steps ask for
 * inputs, first asks for their values in a dialog.
 */
export function RunInCloud({ automation }: { automation: { id: string; name: string; inputNames: string[]; takesRows: boolean } }) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const navigation = useNavigation()
  const busy =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'run-cloud' &&
    navigation.formData.get('automationId') === automation.id
  const label = busy ? 'Starting...' : 'Run in cloud'
  const hidden = (
    <>
      <input type="hidden" name="intent" value="run-cloud" />
      <input type="hidden" name="automationId" value={automation.id} />
    </>
  )
  if (automation.inputNames.length === 0 && !automation.takesRows) {
    return (
      <Form method="post" preventScrollReset>
        {hidden}
        <Button type="submit" size="sm" aria-label={`Run in cloud: ${automation.name}`} disabled={busy}>
          <CloudUpload aria-hidden="true" /> {label}
        </Button>
      </Form>
    )
  }
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" size="sm" aria-label={`Run in cloud: ${automation.name}`} disabled={busy}>
          <CloudUpload aria-hidden="true" /> {label}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Run {automation.name}</DialogTitle>
          <DialogDescription>
            {automation.takesRows
              ? 'Its steps run once for each row of your data. The run keeps the rows and reports each one.'
              : 'Its steps ask for these values. The run keeps them, so you can run it again with the same ones.'}
          </DialogDescription>
        </DialogHeader>
        <Form method="post" encType="multipart/form-data" preventScrollReset className="space-y-4" onSubmit={() => setOpen(false)}>
          {hidden}
          {automation.inputNames.map((name, index) => (
            <div key={name} className="space-y-1.5">
              <Label htmlFor={`${id}-${name}`}>{name}</Label>
              <Input
                id={`${id}-${name}`}
                name={`${INPUT_FIELD_PREFIX}${name}`}
                maxLength={MAX_INPUT_LENGTH}
                autoComplete="off"
                autoFocus={index === 0}
              />
            </div>
          ))}
          {automation.takesRows ? (
            <DataRowsField id={`${id}-rows`} hint="Leave both empty to use the rows kept with the automation." />
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              <CloudUpload aria-hidden="true" /> Run in cloud
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  )
}
