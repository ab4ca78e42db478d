import { ROWS_FIELD, ROWS_FILE_FIELD } from './data-rows-field.tsx'
import type { RunDataSource } from '#server/tables/data-sources.ts'

/**
 * The rows a page's form gives (docs/decisions/046): a CSV or Excel file chosen in it, else the CSV
 * typed or pasted; undefined when neither. The server reads and checks them (server/features/runs/run-data.ts).
 */
export async function dataSourceFromForm(form: FormData): Promise<{ source: RunDataSource; name: string } | undefined> {
  const file = form.get(ROWS_FILE_FIELD)
  if (file instanceof File && file.size > 0) {
    const bytes = new Uint8Array(await file.arrayBuffer())
    const isWorkbook = /\.xlsx$/i.test(file.name) || (bytes[0] === 0x50 && bytes[1] === 0x4b)
    return {
      source: isWorkbook ? { xlsx: bytes } : { csv: new TextDecoder().decode(bytes) },
      name: file.name.slice(0, 200) || 'A file',
    }
  }
  const csv = form.get(ROWS_FIELD)
  return typeof csv === 'string' && csv.trim() !== '' ? { source: { csv }, name: 'Pasted rows' } : undefined
}
