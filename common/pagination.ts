import { z } from './zod.ts'

export const DEFAULT_PAGE_SIZE = 10
const MAX_PAGE_SIZE = 100

export const paginationQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be an integer')
    .min(1, 'page must be at least 1')
    .max(100_000)
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .default(DEFAULT_PAGE_SIZE)
    .transform((limit) => Math.min(limit, MAX_PAGE_SIZE)),
})
export type PaginationQuery = z.infer<typeof paginationQuerySchema>

export interface Page<T> {
  items: T[]
  total: number
  page: number
  limit: number
}
