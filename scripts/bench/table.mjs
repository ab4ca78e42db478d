// The benchmarks' result tables: the first column left-aligned, the others right-aligned.

const cell = (value) => (value == null ? '–' : String(value))

export function table(headers, rows) {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => cell(row[i]).length)))
  const line = (row) => row.map((value, i) => (i === 0 ? cell(value).padEnd(widths[i]) : cell(value).padStart(widths[i]))).join('  ')
  console.log(line(headers))
  console.log(widths.map((width) => '-'.repeat(width)).join('  '))
  for (const row of rows) console.log(line(row))
}
