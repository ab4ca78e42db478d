import { z } from '#common/zod.ts'

const listQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(100_000)
    .default(1),
  search: z
    .string()
    .trim()
    .max(200, 'The search must be at most 200 characters.')
    .optional()
    .transform((value) => value || undefined),
})

/**
 * The page and search of an admin list from its URL. Bad values do not crash the tab: they come
 * back as an error the tab shows as its 'Error fetching …' toast, with the first page instead.
 */
export interface ListQuery {
  page: number
  search?: string
  error: string | null
}

export function readListQuery(request: Request): ListQuery {
  const params = new URL(request.url).searchParams
  const parsed = listQuerySchema.safeParse({ page: params.get('page') ?? undefined, search: params.get('search') ?? undefined })
  if (parsed.success) return { ...parsed.data, error: null }
  return { page: 1, search: undefined, error: parsed.error.issues[0]?.message ?? 'Invalid list query' }
}
