import { z } from '@hono/zod-openapi'
import { actsAsAdmin, admin, publicRoute, signedInRoute } from '#server/http/access.ts'
import { BLOG_STATUSES } from '#common/blog.ts'
import { NotFound } from '#common/errors.ts'
import { paginationQuerySchema } from '#common/pagination.ts'
import { blogPostCreateSchema, blogPostUpdateSchema } from '#common/blog-posts.ts'
import { addSnakeCaseTwins, withSnakeCaseTwins } from '#server/http/field-aliases.ts'
import { markShareable } from '#server/http/kept-api-answers.ts'
import { createRouter, errorResponses, jsonBody, pageResponse } from '#server/http/openapi.ts'
import type { BlogPost, BlogService } from './blog.service.ts'

// The spec's clients read both spellings of some fields (published_at and publishedAt, author
// full_name and fullName), so a post carries both (server/http/field-aliases.ts).
const POST_TWINS = ['coverImageUrl', 'publishedAt', 'createdAt', 'updatedAt'] as const
const AUTHOR_TWINS = ['fullName'] as const

const blogPostSchema = withSnakeCaseTwins(
  {
    id: z.string(),
    title: z.string(),
    slug: z.string(),
    excerpt: z.string().nullable(),
    content: z.string(),
    status: z.enum(BLOG_STATUSES),
    category: z.string().nullable(),
    tags: z.array(z.string()),
    featured: z.boolean(),
    coverImageUrl: z.string().nullable(),
    publishedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    author: withSnakeCaseTwins({ fullName: z.string().nullable() }, AUTHOR_TWINS),
  },
  POST_TWINS,
).openapi('BlogPost')

function toBlogPostDto(post: BlogPost): z.infer<typeof blogPostSchema> {
  return addSnakeCaseTwins(
    {
      id: post.id,
      title: post.title,
      slug: post.slug,
      excerpt: post.excerpt,
      content: post.content,
      status: post.status,
      category: post.category,
      tags: post.tags,
      featured: post.featured,
      coverImageUrl: post.coverImageUrl,
      publishedAt: post.publishedAt?.toISOString() ?? null,
      createdAt: post.createdAt.toISOString(),
      updatedAt: post.updatedAt.toISOString(),
      author: addSnakeCaseTwins({ fullName: post.authorName }, AUTHOR_TWINS),
    },
    POST_TWINS,
  )
}

const listQuerySchema = paginationQuerySchema.extend({
  status: z
    .enum([...BLOG_STATUSES, 'all'], { error: 'status must be draft, published or all' })
    .optional()
    .openapi({ description: 'Admins only: draft, published or all (default published). Everyone else always gets published posts.' }),
  category: z.string().trim().min(1).max(100).optional(),
  featured: z
    .enum(['true', 'false'], { error: 'featured must be true or false' })
    .transform((value) => value === 'true')
    .optional(),
  tag: z.string().trim().min(1).max(100).optional(),
})

const list = publicRoute({
  method: 'get',
  path: '/',
  tags: ['Blog'],
  summary: 'List blog posts: published ones, newest published first (admins may ask for drafts)',
  request: { query: listQuerySchema },
  responses: {
    200: pageResponse(blogPostSchema, 'A page of posts'),
    ...errorResponses(400),
  },
})

const tags = publicRoute({
  method: 'get',
  path: '/tags',
  tags: ['Blog'],
  summary: 'Every tag used by a published post, alphabetically',
  responses: {
    200: { description: 'The tags', content: { 'application/json': { schema: z.object({ data: z.array(z.string()) }) } } },
  },
})

const getOne = publicRoute({
  method: 'get',
  path: '/{slug}',
  tags: ['Blog'],
  summary: 'One published post by slug (drafts answer 404)',
  request: { params: z.object({ slug: z.string().min(1).max(200) }) },
  responses: {
    200: { description: 'The post', content: { 'application/json': { schema: z.object({ data: blogPostSchema }) } } },
    ...errorResponses(404),
  },
})

const postResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: z.object({ data: blogPostSchema }) } },
})
const idParam = z.object({ id: z.uuid({ error: 'id must be a post id' }) })

const create = signedInRoute(admin('admin:content'), {
  method: 'post',
  path: '/',
  tags: ['Blog (admin)'],
  summary: 'Create a post (draft unless status is published); the slug is made from the title',
  request: { body: jsonBody(blogPostCreateSchema) },
  responses: { 201: postResponse('The new post'), ...errorResponses(400) },
})

const update = signedInRoute(admin('admin:content'), {
  method: 'put',
  path: '/{id}',
  tags: ['Blog (admin)'],
  summary: 'Change any fields of a post; its slug stays fixed once it has been published',
  request: { params: idParam, body: jsonBody(blogPostUpdateSchema) },
  responses: { 200: postResponse('The updated post'), ...errorResponses(400, 404) },
})

const remove = signedInRoute(admin('admin:content'), {
  method: 'delete',
  path: '/{id}',
  tags: ['Blog (admin)'],
  summary: 'Delete a post',
  request: { params: idParam },
  responses: {
    200: { description: 'Deleted', content: { 'application/json': { schema: z.object({ data: z.object({ success: z.boolean() }) }) } } },
    ...errorResponses(404),
  },
})

export function createBlogApi(blog: BlogService) {
  // /tags is registered before /{slug}, so it is never read as a slug.
  return createRouter()
    .openapi(list, async (c) => {
      const { status, ...query } = c.req.valid('query')
      const isAdmin = actsAsAdmin(c.get('user'), 'admin:read')
      // Drafts exist only for admins: anyone else asking for them still gets published posts.
      const page =
        isAdmin && status && status !== 'published'
          ? await blog.listAll({ ...query, status: status === 'all' ? undefined : status })
          : await blog.listPublished(query)
      markShareable(c)
      return c.json({ data: page.items.map(toBlogPostDto), total: page.total, page: page.page, limit: page.limit }, 200)
    })
    .openapi(tags, async (c) => {
      const data = await blog.listTags()
      markShareable(c)
      return c.json({ data }, 200)
    })
    .openapi(getOne, async (c) => {
      const post = await blog.getPublishedBySlug(c.req.valid('param').slug)
      if (!post) throw new NotFound('Post not found')
      markShareable(c)
      return c.json({ data: toBlogPostDto(post) }, 200)
    })
    .openapi(create, async (c) => {
      const actor = c.get('member')
      return c.json({ data: toBlogPostDto(await blog.create(actor, c.req.valid('json'))) }, 201)
    })
    .openapi(update, async (c) => {
      const actor = c.get('member')
      return c.json({ data: toBlogPostDto(await blog.update(actor, c.req.valid('param').id, c.req.valid('json'))) }, 200)
    })
    .openapi(remove, async (c) => {
      const actor = c.get('member')
      await blog.remove(actor, c.req.valid('param').id)
      return c.json({ data: { success: true } }, 200)
    })
}
