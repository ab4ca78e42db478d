import { Upload } from 'lucide-react'
import { useId, useState } from 'react'
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
import { Label } from '#app/components/ui/label.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { readImport, type StepData } from './step-drafts.ts'

/** The most JSON one import reads (a thousand generous steps). */
const MAX_IMPORT_BYTES = 1_000_000

/**
 * 'Import JSON': steps pasted or read from a file (a list of steps, or a document with `steps`,
 * as Export writes it). They replace the editor's steps. No <form> here: the dialog sits inside
 * the automation's form in the React tree, and a submit would bubble up to it.
 */
export function ImportStepsDialog({ onImport }: { onImport: (steps: StepData[]) => void }) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)

  function reset(next: boolean) {
    setOpen(next)
    if (!next) {
      setText('')
      setError(null)
    }
  }

  async function readFile(file: File | undefined) {
    if (!file) return
    if (file.size > MAX_IMPORT_BYTES) {
      setError('This file is too large (at most 1 MB).')
      return
    }
    setText(await file.text())
    setError(null)
  }

  function importSteps() {
    const result = readImport(text)
    if (!result.ok) {
      setError(result.message)
      return
    }
    onImport(result.steps)
    reset(false)
  }

  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" size="sm">
          <Upload aria-hidden="true" /> Import JSON
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Import steps</DialogTitle>
          <DialogDescription>
            Paste a list of steps, or an exported automation, or choose a .json file. The imported steps replace the current ones; nothing
            is saved until you save.
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-file`}>JSON file</Label>
            <input
              id={`${id}-file`}
              type="file"
              accept="application/json,.json"
              className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5 file:text-sm file:font-medium"
              onChange={(event) => void readFile(event.target.files?.[0])}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-text`}>Paste JSON</Label>
            <Textarea
              id={`${id}-text`}
              value={text}
              rows={8}
              spellCheck={false}
              className="font-mono text-xs"
              placeholder={'[{ "type": "navigate", "url": "https://example.com" }]'}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => {
                setText(event.target.value)
                setError(null)
              }}
            />
          </div>
          {error ? (
            <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => reset(false)}>
            Cancel
          </Button>
          <Button type="button" onClick={importSteps} disabled={!text.trim()}>
            Import steps
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
