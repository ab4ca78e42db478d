import { lazy, Suspense, useId } from 'react'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import type { ChartSeries } from './bar-chart.tsx'

// The chart library is fetched by the browser once the page is up; the page itself never waits for it.
const BarChart = lazy(() => import('./bar-chart.tsx'))

export interface FigureColumn extends ChartSeries {
  /** How a value reads in the table (a count by default). */
  format?: (value: number) => string
}

/**
 * A chart with its figures: the title and a sentence that sums it up, the bars (drawn in the
 * browser, hidden from screen readers), and every figure in a table under "Figures", rendered by
 * the server, so the page reads the same to a screen reader and without JavaScript.
 */
export function ChartFigure<Row extends object>({
  title,
  summary,
  rows,
  category,
  categoryLabel,
  columns,
  across = false,
}: {
  title: string
  summary: string
  rows: Row[]
  /** The field of a row that names it (a day, a plan). */
  category: keyof Row & string
  categoryLabel: string
  columns: FigureColumn[]
  across?: boolean
}) {
  const id = useId()
  const hydrated = useHydrated()
  const height = across ? Math.max(120, rows.length * 36 + 32) : 180
  return (
    <figure
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-summary`}
      className="min-w-0 space-y-3 rounded-lg border bg-card p-4 shadow-sm"
    >
      <figcaption className="space-y-1">
        <h3 id={`${id}-title`} className="font-medium">
          {title}
        </h3>
        <p id={`${id}-summary`} className="text-sm text-muted-foreground">
          {summary}
        </p>
      </figcaption>
      {rows.length > 0 ? (
        <>
          <div aria-hidden="true" style={{ height }} className="min-w-0">
            {hydrated ? (
              <Suspense fallback={null}>
                <BarChart rows={rows} category={category} series={columns} across={across} height={height} />
              </Suspense>
            ) : null}
          </div>
          {columns.length > 1 ? <Legend columns={columns} /> : null}
          <Figures title={title} rows={rows} category={category} categoryLabel={categoryLabel} columns={columns} />
        </>
      ) : null}
    </figure>
  )
}

function Figures<Row extends object>({
  title,
  rows,
  category,
  categoryLabel,
  columns,
}: {
  title: string
  rows: Row[]
  category: keyof Row & string
  categoryLabel: string
  columns: FigureColumn[]
}) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-muted-foreground hover:text-foreground">Figures</summary>
      <table className="mt-2 w-full tabular-nums">
        <caption className="sr-only">{title}</caption>
        <thead>
          <tr className="border-b text-left text-muted-foreground">
            <th scope="col" className="py-1 pr-2 font-medium">
              {categoryLabel}
            </th>
            {columns.map((column) => (
              <th key={column.key} scope="col" className="py-1 pl-2 text-right font-medium">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const cells = row as Record<string, unknown>
            return (
              <tr key={String(cells[category])} className="border-b last:border-0">
                <th scope="row" className="py-1 pr-2 text-left font-normal">
                  {String(cells[category])}
                </th>
                {columns.map((column) => (
                  <td key={column.key} className="py-1 pl-2 text-right">
                    {(column.format ?? ((value: number) => value.toLocaleString('en-US')))(Number(cells[column.key] ?? 0))}
                  </td>
                ))}
              </tr>
            )
          })}
        </tbody>
      </table>
    </details>
  )
}

function Legend({ columns }: { columns: FigureColumn[] }) {
  return (
    <ul aria-hidden="true" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
      {columns.map((column) => (
        <li key={column.key} className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm" style={{ background: column.color }} />
          {column.label}
        </li>
      ))}
    </ul>
  )
}
