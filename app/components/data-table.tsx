import type * as React from 'react'
import { cn } from '#app/lib/cn.ts'

/** A column heading: its text, and classes for its header cell (alignment, hiding on small screens). */
export type DataTableColumn = string | { label: string; className?: string; srOnly?: boolean }

/**
 * A bordered table with a caption for screen readers. Narrower than `stack` (48rem, or 60rem for a
 * wide table) it shows each row as a stack of its cells, each under the column name its cell
 * carries in `data-label` (app.css); `stack={false}` keeps it a table that scrolls sideways (a
 * grid of extracted data). With `regionLabel`, the scrolling area is a labelled region that the
 * keyboard can focus and scroll.
 */
export function DataTable({
  caption,
  headers,
  children,
  className,
  tableClassName,
  regionLabel,
  stack = 'md',
}: {
  caption: string
  headers: DataTableColumn[]
  children: React.ReactNode
  className?: string
  tableClassName?: string
  regionLabel?: string
  stack?: 'md' | 'lg' | false
}) {
  const region = regionLabel ? ({ role: 'region', 'aria-label': regionLabel, tabIndex: 0 } as const) : {}
  return (
    <div
      {...region}
      data-stack={stack || undefined}
      className={cn(
        'data-table overflow-x-auto rounded-lg border',
        regionLabel && 'focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
        className,
      )}
    >
      <table className={cn('w-full text-left text-sm', tableClassName)}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b bg-muted/50 text-muted-foreground">
          <tr>
            {headers.map((header) => {
              const column = typeof header === 'string' ? { label: header } : header
              return (
                <th key={column.label} scope="col" className={cn('px-3 py-2 font-medium whitespace-nowrap', column.className)}>
                  {column.srOnly ? <span className="sr-only">{column.label}</span> : column.label}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

export function EmptyRow({ colSpan, children }: { colSpan: number; children: React.ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-3 py-10 text-center text-muted-foreground">
        {children}
      </td>
    </tr>
  )
}
