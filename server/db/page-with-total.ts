import { sql } from 'drizzle-orm'
import type { Page } from '#common/pagination.ts'

/**
 * A column that counts every row the query matches, before its limit and offset: select it beside
 * a page's columns and the page and its total come back in one query (one round trip, not two).
 */
export const TOTAL_ROWS = { totalRows: sql<number>`count(*) over ()`.mapWith(Number) }

/**
 * The page whose rows carry TOTAL_ROWS. A page past the end has no row to carry the total: then
 * `countAll` counts (the one case that costs a second query).
 */
export async function pageWithTotal<Row extends { totalRows: number }, Item = Omit<Row, 'totalRows'>>(
  rows: Row[],
  query: { page: number; limit: number },
  countAll: () => Promise<number>,
  toItem: (row: Omit<Row, 'totalRows'>) => Item = (row) => row as Item,
): Promise<Page<Item>> {
  const total = rows[0]?.totalRows ?? (query.page > 1 ? await countAll() : 0)
  const items = rows.map(({ totalRows: _, ...row }) => toItem(row))
  return { items, total, page: query.page, limit: query.limit }
}
