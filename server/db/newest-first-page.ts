import { count, desc, getTableColumns, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Page } from '#common/pagination.ts'
import type { Db } from './client.ts'
import { pageWithTotal, TOTAL_ROWS } from './page-with-total.ts'

/** One page of a table's rows in `order`, with the number of all matches (one query; page-with-total.ts). */
export async function tablePage<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  order: (SQL | PgColumn)[],
  query: { page: number; limit: number },
): Promise<Page<T['$inferSelect']>> {
  // Drizzle's builder types do not follow a generic table; the rows are the table's own.
  const source: PgTable = table
  const rows = await db
    .select({ ...getTableColumns(source), ...TOTAL_ROWS })
    .from(source)
    .where(where)
    .orderBy(...order)
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
  const countAll = async () => (await db.select({ total: count() }).from(source).where(where))[0]?.total ?? 0
  return pageWithTotal(rows, query, countAll) as Promise<Page<T['$inferSelect']>>
}

/** One page of a table's rows, newest first (ties broken by id), with the number of all matches. */
export function newestFirstPage<T extends PgTable & { createdAt: PgColumn; id: PgColumn }>(
  db: Db,
  table: T,
  where: SQL | undefined,
  query: { page: number; limit: number },
): Promise<Page<T['$inferSelect']>> {
  return tablePage(db, table, where, [desc(table.createdAt), desc(table.id)], query)
}
