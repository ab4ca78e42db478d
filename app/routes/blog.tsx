import { format } from 'date-fns'
import { data, Link, useLoaderData } from 'react-router'
import type { Route } from './+types/blog'
import { Card } from '#app/components/ui/card.tsx'
import { cn } from '#app/lib/cn.ts'
import { pageCacheControl, publicPageHeaders } from '#app/lib/page-cache.ts'
import { seo, seoSite } from '#app/lib/seo.ts'
import { BLOG_PAGE_SIZE, blogCoverUrl } from '#common/blog.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const requested = Number(new URL(request.url).searchParams.get('page') ?? '1')
  const page = Number.isInteger(requested) && requested >= 1 && requested <= 100_000 ? requested : 1
  const result = await context.services.blog.listPublished({ page, limit: BLOG_PAGE_SIZE })
  // A page past the end is not a page.
  if (page > 1 && result.items.length === 0) throw data(null, { status: 404 })
  return data(
    {
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

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  seo(
    {
      title: loaderData && loaderData.page > 1 ? `Blog (page ${loaderData.page}) | Aether` : 'Blog | Aether',
      description: 'AI, technology, and innovation',
      path: loaderData && loaderData.page > 1 ? `/blog?page=${loaderData.page}` : '/blog',
      keywords: ['Aether blog', 'AI', 'automation', 'technology', 'innovation', 'tutorials'],
    },
    seoSite(matches),
  )

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
          {posts.map((post) => (
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
                    loading="lazy"
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
      {pageCount > 1 ? <Pagination page={page} pageCount={pageCount} /> : null}
    </main>
  )
}

function Pagination({ page, pageCount }: { page: number; pageCount: number }) {
  const pages = Array.from({ length: pageCount }, (_, i) => i + 1)
  const href = (n: number) => (n === 1 ? '/blog' : `/blog?page=${n}`)
  const item = 'inline-flex h-10 min-w-10 items-center justify-center rounded-md border px-3 text-sm font-medium'
  return (
    <nav aria-label="Blog pages" className="mt-12 flex flex-wrap items-center justify-center gap-2">
      {page > 1 ? (
        <Link to={href(page - 1)} className={cn(item, 'hover:bg-accent')} rel="prev">
          Previous
        </Link>
      ) : null}
      {pages.map((n) => (
        <Link
          key={n}
          to={href(n)}
          aria-current={n === page ? 'page' : undefined}
          aria-label={`Page ${n}`}
          className={cn(item, n === page ? 'border-primary bg-primary text-primary-foreground' : 'hover:bg-accent')}
        >
          {n}
        </Link>
      ))}
      {page < pageCount ? (
        <Link to={href(page + 1)} className={cn(item, 'hover:bg-accent')} rel="next">
          Next
        </Link>
      ) : null}
    </nav>
  )
}
