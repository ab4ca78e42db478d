/** Blog constants shared by the API, the pages and (later) the admin editor. */
export const BLOG_STATUSES = ['draft', 'published'] as const
export type BlogStatus = (typeof BLOG_STATUSES)[number]

export const BLOG_CATEGORIES = [
  'Automation',
  'Productivity',
  'AI',
  'Development',
  'Case Study',
  'Future of Work',
  'Technology',
  'Tutorial',
] as const

/** Posts per page on /blog and the spec's default page size of GET /api/blog. */
export const BLOG_PAGE_SIZE = 10

/** Where a post's generated cover lives when it has no uploaded image. */
export function blogCoverUrl(post: { slug: string; coverImageUrl?: string | null }): string {
  return post.coverImageUrl || `/blog/covers/${encodeURIComponent(post.slug)}.svg`
}

/** Where an uploaded cover is served from; a post's cover URL must be one of ours. */
export const COVER_UPLOAD_PATH = '/uploads/covers/'
export const COVER_MAX_BYTES = 2 * 1024 * 1024
export const COVER_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const
