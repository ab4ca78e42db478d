import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { BlogStatus } from '#common/blog.ts'
import type { Page, PaginationQuery } from '#common/pagination.ts'
import type { Db } from '#server/db/client.ts'
import { blogPosts, profiles } from '#server/db/schema/index.ts'

export type BlogPostRow = typeof blogPosts.$inferSelect

/** A post as readers see it: the row plus its author's name (null when unknown). */
export interface BlogPost extends Omit<BlogPostRow, 'authorId'> {
  authorId: string | null
  authorName: string | null
}

export interface BlogListQuery extends PaginationQuery {
  category?: string
  featured?: boolean
  tag?: string
}

export interface BlogAdminListQuery extends BlogListQuery {
  /** Omitted: every post, drafts included. */
  status?: BlogStatus
}

/** What the sitemap and the RSS feed need of every published post. */
export interface PublishedPostSummary {
  title: string
  slug: string
  excerpt: string | null
  publishedAt: Date | null
  updatedAt: Date
  authorName: string | null
}

export function createBlogService(db: Db) {
  const columns = { post: blogPosts, authorName: profiles.fullName }
  const published = eq(blogPosts.status, 'published')

  function filters(query: BlogListQuery, status: BlogStatus | undefined): SQL | undefined {
    const conditions: SQL[] = []
    if (status) conditions.push(eq(blogPosts.status, status))
    if (query.category) conditions.push(sql`lower(${blogPosts.category}) = lower(${query.category})`)
    if (query.featured !== undefined) conditions.push(eq(blogPosts.featured, query.featured))
    if (query.tag) conditions.push(sql`${blogPosts.tags} @> ${JSON.stringify([query.tag])}::jsonb`)
    return conditions.length ? and(...conditions) : undefined
  }

  async function page(query: BlogListQuery, status: BlogStatus | undefined, order: SQL[]): Promise<Page<BlogPost>> {
    const where = filters(query, status)
    const [rows, [totals]] = await Promise.all([
      db
        .select(columns)
        .from(blogPosts)
        .leftJoin(profiles, eq(profiles.id, blogPosts.authorId))
        .where(where)
        .orderBy(...order)
        .limit(query.limit)
        .offset((query.page - 1) * query.limit),
      db.select({ total: count() }).from(blogPosts).where(where),
    ])
    return { items: rows.map(toPost), total: totals?.total ?? 0, page: query.page, limit: query.limit }
  }

  return {
    /** Published posts, newest published first. */
    listPublished(query: BlogListQuery): Promise<Page<BlogPost>> {
      return page(query, 'published', [sql`${blogPosts.publishedAt} desc nulls last`, desc(blogPosts.createdAt), desc(blogPosts.id)])
    },

    /** Every post or those of one status, newest created first (the admin's list). */
    listAll(query: BlogAdminListQuery): Promise<Page<BlogPost>> {
      return page(query, query.status, [desc(blogPosts.createdAt), desc(blogPosts.id)])
    },

    /** A published post by slug; null when it is missing or still a draft. */
    async getPublishedBySlug(slug: string): Promise<BlogPost | null> {
      const [row] = await db
        .select(columns)
        .from(blogPosts)
        .leftJoin(profiles, eq(profiles.id, blogPosts.authorId))
        .where(and(eq(blogPosts.slug, slug), published))
      return row ? toPost(row) : null
    },

    /** Title of a published post, for its cover; null when missing or draft. */
    async getPublishedTitle(slug: string): Promise<string | null> {
      const [row] = await db
        .select({ title: blogPosts.title })
        .from(blogPosts)
        .where(and(eq(blogPosts.slug, slug), published))
      return row?.title ?? null
    },

    /** Every tag used by a published post, alphabetically. */
    async listTags(): Promise<string[]> {
      const tag = sql<string>`jsonb_array_elements_text(${blogPosts.tags})`
      const rows = await db
        .selectDistinct({ tag })
        .from(blogPosts)
        .where(published)
        .orderBy(sql`1`)
      return rows.map((row) => row.tag)
    },

    /** Every published post, newest first, with what a sitemap or feed shows. */
    async listPublishedSummaries(limit = 1000): Promise<PublishedPostSummary[]> {
      const rows = await db
        .select({
          title: blogPosts.title,
          slug: blogPosts.slug,
          excerpt: blogPosts.excerpt,
          publishedAt: blogPosts.publishedAt,
          updatedAt: blogPosts.updatedAt,
          authorName: profiles.fullName,
        })
        .from(blogPosts)
        .leftJoin(profiles, eq(profiles.id, blogPosts.authorId))
        .where(published)
        .orderBy(sql`${blogPosts.publishedAt} desc nulls last`, desc(blogPosts.createdAt))
        .limit(limit)
      return rows
    },
  }
}

function toPost(row: { post: BlogPostRow; authorName: string | null }): BlogPost {
  return { ...row.post, authorName: row.authorName }
}

export type BlogService = ReturnType<typeof createBlogService>
