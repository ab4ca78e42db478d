import { Link } from 'react-router'
import { cn } from '#app/lib/cn.ts'

/** The pages to show: the first, the last, and two either side of the current one. */
function visiblePages(page: number, pageCount: number): (number | 'gap')[] {
  const shown: (number | 'gap')[] = []
  for (let n = 1; n <= pageCount; n++) {
    if (n === 1 || n === pageCount || Math.abs(n - page) <= 2) shown.push(n)
    else if (shown.at(-1) !== 'gap') shown.push('gap')
  }
  return shown
}

/** Numbered pages as links (they work without JavaScript and can be bookmarked). */
export function Pagination({
  page,
  pageCount,
  href,
  label,
}: {
  page: number
  pageCount: number
  href: (page: number) => string
  label: string
}) {
  if (pageCount <= 1) return null
  const item = 'inline-flex h-10 min-w-10 items-center justify-center rounded-md border px-3 text-sm font-medium'
  return (
    <nav aria-label={label} className="mt-8 flex flex-wrap items-center justify-center gap-2">
      {page > 1 ? (
        <Link to={href(page - 1)} className={cn(item, 'hover:bg-accent')} rel="prev">
          Previous
        </Link>
      ) : null}
      {visiblePages(page, pageCount).map((n, index) =>
        n === 'gap' ? (
          <span key={`gap-${index}`} className="px-1 text-muted-foreground" aria-hidden="true">
            …
          </span>
        ) : (
          <Link
            key={n}
            to={href(n)}
            aria-current={n === page ? 'page' : undefined}
            aria-label={`Page ${n}`}
            className={cn(item, n === page ? 'border-primary bg-primary text-primary-foreground' : 'hover:bg-accent')}
          >
            {n}
          </Link>
        ),
      )}
      {page < pageCount ? (
        <Link to={href(page + 1)} className={cn(item, 'hover:bg-accent')} rel="next">
          Next
        </Link>
      ) : null}
    </nav>
  )
}
