import { and, count, desc, eq, ilike, like, or, sql, type SQL } from 'drizzle-orm'
import type { BlogStatus } from '#common/blog.ts'
import type { BlogPostCreate, BlogPostUpdate } from '#common/blog-posts.ts'
import { NotFound } from '#common/errors.ts'
import { isUuid } from '#common/ids.ts'
import { slugify, uniqueSlug } from '#common/slug.ts'
import type { Actor, AuditService } from '#server/features/audit/audit.service.ts'
import type { Page, PaginationQuery } from '#common/pagination.ts'
import { pageWithTotal, TOTAL_ROWS } from '#server/db/page-with-total.ts'
import type { Db } from '#server/db/client.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { containsPattern } from '#server/db/like-pattern.ts'
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
  /** Case-insensitive match on title or content. */
  search?: string
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

/** Enough for several admins saving the same title at once. */
const SLUG_ATTEMPTS = 5

export function createBlogService(db: Db, audit: AuditService) {
  const columns = { post: blogPosts, authorName: profiles.fullName }
  const published = eq(blogPosts.status, 'published')

  function filters(query: BlogAdminListQuery, status: BlogStatus | undefined): SQL | undefined {
    const conditions: SQL[] = []
    if (query.search) {
      const pattern = containsPattern(query.search)
      const match = or(ilike(blogPosts.title, pattern), ilike(blogPosts.content, pattern))
      if (match) conditions.push(match)
    }
    if (status) conditions.push(eq(blogPosts.status, status))
    if (query.category) conditions.push(sql`lower(${blogPosts.category}) = lower(${query.category})`)
    if (query.featured !== undefined) conditions.push(eq(blogPosts.featured, query.featured))
    if (query.tag) conditions.push(sql`${blogPosts.tags} @> ${JSON.stringify([query.tag])}::jsonb`)
    return conditions.length ? and(...conditions) : undefined
  }

  async function page(query: BlogAdminListQuery, status: BlogStatus | undefined, order: SQL[]): Promise<Page<BlogPost>> {
    const where = filters(query, status)
    const rows = await db
      .select({ ...columns, ...TOTAL_ROWS })
      .from(blogPosts)
      .leftJoin(profiles, eq(profiles.id, blogPosts.authorId))
      .where(where)
      .orderBy(...order)
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
    const countAll = async () => (await db.select({ total: count() }).from(blogPosts).where(where))[0]?.total ?? 0
    return pageWithTotal(rows, query, countAll, toPost)
  }

  async function requirePost(id: string): Promise<BlogPost> {
    if (!isUuid(id)) throw new NotFound('Post not found')
    const [row] = await db
      .select(columns)
      .from(blogPosts)
      .leftJoin(profiles, eq(profiles.id, blogPosts.authorId))
      .where(eq(blogPosts.id, id))
    if (!row) throw new NotFound('Post not found')
    return toPost(row)
  }

  /** A free slug made from the title (numbered when taken by another post). */
  async function slugFor(tx: Pick<Db, 'select'>, title: string, exceptId?: string): Promise<string> {
    const base = slugify(title) || 'post'
    const rows = await tx
      .select({ id: blogPosts.id, slug: blogPosts.slug })
      .from(blogPosts)
      .where(like(blogPosts.slug, `${base}%`))
    return uniqueSlug(base, new Set(rows.filter((row) => row.id !== exceptId).map((row) => row.slug)))
  }

  /**
   * Runs a write that allocates a slug again when another admin's post took that slug between our
   * read and our insert (the unique index refuses it): the next attempt sees the committed post.
   * The slug is the table's only unique column besides the generated id.
   */
  async function withFreeSlug<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write()
      } catch (error) {
        if (attempt >= SLUG_ATTEMPTS || !isUniqueViolation(error)) throw error
      }
    }
  }

  const auditView = (post: Pick<BlogPostRow, 'title' | 'slug' | 'status' | 'category' | 'featured' | 'excerpt'>) => ({
    title: post.title,
    slug: post.slug,
    status: post.status,
    category: post.category,
    featured: post.featured,
    excerpt: post.excerpt,
  })

  return {
    get: requirePost,

    /** A new post (draft unless said otherwise); published_at is set when it is first published. */
    async create(actor: Actor, input: BlogPostCreate): Promise<BlogPost> {
      const id = await withFreeSlug(() =>
        db.transaction(async (tx) => {
          const now = new Date()
          const [post] = await tx
            .insert(blogPosts)
            .values({
              ...input,
              slug: await slugFor(tx, input.title),
              authorId: actor.id,
              publishedAt: input.status === 'published' ? now : null,
            })
            .returning()
          if (!post) throw new Error('post insert returned nothing')
          await audit.record(tx, actor, {
            action: 'post.create',
            targetType: 'post',
            targetId: post.id,
            summary: `Created "${post.title}" (${post.status})`,
            after: auditView(post),
          })
          return post.id
        }),
      )
      return requirePost(id)
    },

    /** Saves the given fields. The slug follows the title until the post is first published, then stays. */
    async update(actor: Actor, id: string, changes: BlogPostUpdate): Promise<BlogPost> {
      // An id that is no UUID (a page's form sends what it is given) is as unknown as a missing one.
      if (!isUuid(id)) throw new NotFound('Post not found')
      await withFreeSlug(() =>
        db.transaction(async (tx) => {
          const [before] = await tx.select().from(blogPosts).where(eq(blogPosts.id, id)).for('update')
          if (!before) throw new NotFound('Post not found')
          const publishing = changes.status === 'published' && !before.publishedAt
          const slug = changes.title && !before.publishedAt ? await slugFor(tx, changes.title, id) : before.slug
          const [after] = await tx
            .update(blogPosts)
            .set({ ...changes, slug, publishedAt: publishing ? new Date() : before.publishedAt, updatedAt: new Date() })
            .where(eq(blogPosts.id, id))
            .returning()
          if (!after) throw new NotFound('Post not found')
          await audit.record(tx, actor, {
            action: 'post.update',
            targetType: 'post',
            targetId: id,
            summary: `Edited "${after.title}"${before.status !== after.status ? ` (${before.status} → ${after.status})` : ''}`,
            before: auditView(before),
            after: auditView(after),
          })
        }),
      )
      return requirePost(id)
    },

    async remove(actor: Actor, id: string): Promise<BlogPostRow> {
      if (!isUuid(id)) throw new NotFound('Post not found')
      return db.transaction(async (tx) => {
        const [post] = await tx.delete(blogPosts).where(eq(blogPosts.id, id)).returning()
        if (!post) throw new NotFound('Post not found')
        await audit.record(tx, actor, {
          action: 'post.delete',
          targetType: 'post',
          targetId: id,
          summary: `Deleted "${post.title}"`,
          before: auditView(post),
        })
        return post
      })
    },

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
