import { useRef, useState } from 'react'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { MAX_CSV_LENGTH, MAX_XLSX_BYTES } from '#common/data-rows.ts'

/** The form field that carries rows of data as CSV text (docs/decisions/046). */
export const ROWS_FIELD = 'rowsCsv'
/** The form field that carries a chosen Excel workbook (the form is sent as multipart). */
export const ROWS_FILE_FIELD = 'rowsFile'

/**
 * Rows of data for a form sent as multipart: pasted as CSV, or a file chosen here. A CSV file's
 * text is put in the box to look at and change; an Excel workbook (.xlsx) is sent as it is, and the
 * server reads its first sheet. The first line (row) names the columns, {{row.<column>}}.
 */
export function DataRowsField({ id, hint }: { id: string; hint?: string }) {
  const [csv, setCsv] = useState('')
  const [workbook, setWorkbook] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  async function read(file: File | undefined) {
    setProblem(null)
    setWorkbook(null)
    if (!file) return
    const clear = () => {
      if (fileInput.current) fileInput.current.value = ''
    }
    if (/\.xlsx$/i.test(file.name)) {
      if (file.size > MAX_XLSX_BYTES) {
        clear()
        return setProblem(`The workbook is larger than ${MAX_XLSX_BYTES / 1000} KB: save it as CSV, or split it.`)
      }
      return setWorkbook(file.name)
    }
    clear()
    if (file.size > MAX_CSV_LENGTH) return setProblem(`The file is larger than ${MAX_CSV_LENGTH / 1_000_000} MB.`)
    setCsv(await file.text())
  }
  const describedBy = [problem ? `${id}-problem` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined
  return (
    <div className="space-y-3">
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-file`}>CSV or Excel file (optional)</Label>
        <Input
          ref={fileInput}
          id={`${id}-file`}
          name={ROWS_FILE_FIELD}
          type="file"
          accept=".csv,text/csv,.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(event) => void read(event.target.files?.[0])}
        />
        {workbook ? (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            The rows come from the first sheet of {workbook}: its first row names the columns.
          </p>
        ) : null}
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={id}>Rows (CSV: the first line names the columns)</Label>
        <Textarea
          id={id}
          name={ROWS_FIELD}
          value={csv}
          onChange={(event) => setCsv(event.target.value)}
          disabled={workbook !== null}
          rows={6}
          maxLength={MAX_CSV_LENGTH}
          spellCheck={false}
          className="font-mono text-xs"
          placeholder={'name,email\nAda Lovelace,ada@example.com'}
          aria-describedby={describedBy}
        />
        {hint ? (
          <p id={`${id}-hint`} className="text-sm text-muted-foreground">
            {hint}
          </p>
        ) : null}
        {problem ? (
          <p id={`${id}-problem`} role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        ) : null}
      </div>
    </div>
  )
}
