import { Download, FileUp } from 'lucide-react'
import { useId, useState } from 'react'
import { Form, useActionData, useNavigation } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { sizeInWords } from '#app/lib/size-in-words.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { MAX_AUTOMATION_FILE_BYTES, MAX_AUTOMATION_FILES } from '#common/file-steps.ts'
import type { AutomationFilesView } from './automation-files-view.server.ts'

const FILE_INTENTS = ['keep-file', 'remove-file']
/** The form field that holds the file to keep. */
export const FILE_FIELD = 'file'
const MEGABYTES = MAX_AUTOMATION_FILE_BYTES / 1024 / 1024

/** The page's action answer, when it is one of this card's. */
function useFilesAnswer() {
  const answer = useActionData<ActionResult | Record<string, unknown>>()
  return answer && 'intent' in answer && FILE_INTENTS.includes(String(answer.intent)) ? (answer as ActionResult) : undefined
}

/**
 * Files kept with an automation (docs/decisions/046): an upload step chooses one by its name in a
 * file input when the run has no file of that name (a download, a saved table) of its own.
 */
export function AutomationFilesCard({ view, readOnly }: { view: AutomationFilesView; readOnly: boolean }) {
  const id = useId()
  useActionToast(useFilesAnswer())
  const navigation = useNavigation()
  const keeping = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'keep-file'
  const [problem, setProblem] = useState<string | null>(null)
  const full = view.files.length >= MAX_AUTOMATION_FILES
  return (
    <Card role="region" aria-labelledby={`${id}-title`}>
      <CardHeader>
        <CardTitle level={2} id={`${id}-title`}>
          Files
        </CardTitle>
        <CardDescription>
          Its upload steps choose these by name in a file input, in cloud runs: name one in the step, or take the name from a row with{' '}
          <code>{'{{row.column}}'}</code>. At most {MAX_AUTOMATION_FILES} files of {MEGABYTES} MB each.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {view.files.length === 0 ? (
          <p className="text-muted-foreground">No files are kept with it yet.</p>
        ) : (
          <ul className="divide-y" aria-label="Kept files">
            {view.files.map((file) => (
              <li key={file.name} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="break-all">
                  <span className="font-mono">{file.name}</span>{' '}
                  <span className="text-muted-foreground">
                    · {sizeInWords(file.size)} · kept {file.keptAt}
                  </span>
                </span>
                <span className="flex gap-2">
                  <Button asChild variant="outline" size="sm">
                    <a href={file.url} download={file.name} aria-label={`Download ${file.name}`}>
                      <Download aria-hidden="true" /> Download
                    </a>
                  </Button>
                  {readOnly ? null : (
                    <ConfirmAction
                      label="Remove"
                      title={`Remove ${file.name}?`}
                      description="Upload steps that name it fail until you keep a file of that name again."
                      confirmLabel="Remove"
                      fields={{ intent: 'remove-file', name: file.name }}
                      triggerProps={{ variant: 'outline', size: 'sm', 'aria-label': `Remove ${file.name}` }}
                      destructive
                    />
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
        {readOnly ? null : (
          <Form method="post" encType="multipart/form-data" className="space-y-2" onSubmit={(event) => problem && event.preventDefault()}>
            <input type="hidden" name="intent" value="keep-file" />
            <label htmlFor={`${id}-file`} className="block font-medium">
              A file to keep
            </label>
            <input
              id={`${id}-file`}
              type="file"
              name={FILE_FIELD}
              required
              aria-describedby={`${id}-file-help`}
              aria-invalid={problem ? true : undefined}
              className="block w-full text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5"
              onChange={(event) => {
                const chosen = event.currentTarget.files?.[0]
                setProblem(chosen && chosen.size > MAX_AUTOMATION_FILE_BYTES ? `The file is larger than ${MEGABYTES} MB.` : null)
              }}
            />
            <p
              id={`${id}-file-help`}
              className={problem ? 'text-destructive' : 'text-muted-foreground'}
              role={problem ? 'alert' : undefined}
            >
              {problem ?? 'It is kept under its own name; a file of the same name is replaced.'}
            </p>
            <Button type="submit" size="sm" variant="outline" disabled={keeping || full}>
              <FileUp aria-hidden="true" /> {keeping ? 'Keeping...' : 'Keep this file'}
            </Button>
            {full ? <p className="text-muted-foreground">It keeps {MAX_AUTOMATION_FILES} files: remove one to keep another.</p> : null}
          </Form>
        )}
      </CardContent>
    </Card>
  )
}
