import { format } from 'date-fns'
import { data, Link, useLoaderData } from 'react-router'
import type { Route } from './+types/blog'
import { Pagination } from '#app/components/pagination.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { pageCacheControl, publicPageHeaders } from '#app/lib/page-cache.ts'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import { BLOG_PAGE_SIZE, blogCoverUrl } from '#common/blog.ts'
import { readingPage } from '#app/lib/reading-page.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const requested = Number(new URL(request.url).searchParams.get('page') ?? '1')
  const page = Number.isInteger(requested) && requested >= 1 && requested <= 100_000 ? requested : 1
  const result = await context.services.blog.listPublished({ page, limit: BLOG_PAGE_SIZE })
  // A page past the end is not a page.
  if (page > 1 && result.items.length === 0) throw data(null, { status: 404 })
  const meta = await seo(
    {
      title: (site) => (page > 1 ? `Blog (page ${page}) | ${site}` : `Blog | ${site}`),
      description: 'AI, technology, and innovation',
      path: page > 1 ? `/blog?page=${page}` : '/blog',
      keywords: ['Aether blog', 'AI', 'automation', 'technology', 'innovation', 'tutorials'],
    },
    context,
  )
  return data(
    {
      meta,
      page,
      pageCount: Math.max(1, Math.ceil(result.total / BLOG_PAGE_SIZE)),
      posts: result.items.map((post) => ({
        id: post.id,
        slug: post.slug,
        title: post.title,
        excerpt: post.excerpt,
        coverUrl: blogCoverUrl(post),
        publishedAt: post.publishedAt?.toISOString() ?? null,
        // Formatted here, so the server's HTML and the browser's render agree.
        publishedLabel: post.publishedAt ? format(post.publishedAt, 'MMM d, yyyy') : null,
      })),
    },
    { headers: { 'Cache-Control': pageCacheControl(request, context, 'dynamic') } },
  )
}

export const meta = loaderMeta

export const handle = readingPage

export const headers = publicPageHeaders

export default function Blog() {
  const { posts, page, pageCount } = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <header className="mb-10 text-center">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Blog</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
          Explore articles, tutorials, and insights about our products and technology
        </p>
      </header>
      {posts.length === 0 ? (
        <p className="py-16 text-center text-muted-foreground">No published posts yet. Check back soon!</p>
      ) : (
        <ul className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3">
          {posts.map((post, index) => (
            <li key={post.id}>
              <Link
                to={`/blog/${post.slug}`}
                className="group block h-full rounded-lg focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none"
              >
                <Card className="flex h-full flex-col overflow-hidden transition-shadow group-hover:shadow-lg">
                  <img
                    src={post.coverUrl}
                    alt={`Cover image for ${post.title}`}
                    width={600}
                    height={400}
                    // The first row is in view at once on every screen (the first cover is the largest paint).
                    loading={index < 3 ? 'eager' : 'lazy'}
                    fetchPriority={index === 0 ? 'high' : undefined}
                    className="h-[200px] w-full object-cover"
                  />
                  <div className="flex flex-1 flex-col gap-3 p-6">
                    <h2 className="line-clamp-2 text-xl leading-tight font-semibold tracking-tight group-hover:text-primary">
                      {post.title}
                    </h2>
                    <p className="line-clamp-3 text-sm text-muted-foreground">{post.excerpt || 'Read this article to learn more...'}</p>
                    <div className="mt-auto flex items-center justify-between gap-2 pt-2 text-sm">
                      {post.publishedAt && post.publishedLabel ? (
                        <time dateTime={post.publishedAt} className="text-muted-foreground">
                          {post.publishedLabel}
                        </time>
                      ) : (
                        <span className="text-muted-foreground">Recently published</span>
                      )}
                      <span className="rounded-full bg-primary/10 px-3 py-1 text-xs font-medium text-primary">Read More</span>
                    </div>
                  </div>
                </Card>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} href={(n) => (n === 1 ? '/blog' : `/blog?page=${n}`)} label="Blog pages" />
    </main>
  )
}
