import { format } from 'date-fns'
import { ArrowLeft } from 'lucide-react'
import { data, isRouteErrorResponse, Link, useLoaderData, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/blog-post'
import { Button } from '#app/components/ui/button.tsx'
import { jsonLdText } from '#app/lib/json-ld.ts'
import { pageCacheControl, publicPageHeaders } from '#app/lib/page-cache.ts'
import { ogImagePath, seo } from '#app/lib/seo.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { blogCoverUrl } from '#common/blog.ts'
import { renderMarkdown } from '#app/lib/markdown.server.tsx'
import { privatePageMeta } from '#app/lib/seo.ts'
import { readingPage } from '#app/lib/reading-page.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const post = await context.services.blog.getPublishedBySlug(params.slug)
  // Missing and draft posts look the same to readers: 404, rendered by the ErrorBoundary below.
  if (!post) throw data({ message: 'Post not found' }, { status: 404 })
  const meta = await seo(
    {
      title: (site) => `${post.title} | ${site} Blog`,
      description: post.excerpt || 'Read our latest blog post on Aether.',
      path: `/blog/${post.slug}`,
      type: 'article',
      keywords: post.tags.length ? [...post.tags, 'Aether'] : undefined,
      // The post's own card: its title without the site suffix.
      image: ogImagePath(post.title, context),
    },
    context,
  )
  return data(
    {
      meta,
      post: {
        title: post.title,
        slug: post.slug,
        excerpt: post.excerpt,
        contentHtml: renderMarkdown(post.content),
        category: post.category,
        tags: post.tags,
        coverUrl: blogCoverUrl(post),
        cardPath: ogImagePath(post.title, context),
        authorName: post.authorName,
        publishedAt: post.publishedAt?.toISOString() ?? null,
        updatedAt: post.updatedAt.toISOString(),
        // Formatted here, so the server's HTML and the browser's render agree.
        publishedLabel: post.publishedAt ? format(post.publishedAt, 'MMMM d, yyyy') : null,
      },
    },
    { headers: { 'Cache-Control': pageCacheControl(request, context, 'dynamic') } },
  )
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => loaderData?.meta ?? privatePageMeta('Blog Post Not Found')({ matches })

export const handle = readingPage

export const headers = publicPageHeaders

export default function BlogPost() {
  const { post } = useLoaderData<typeof loader>()
  const root = useRouteLoaderData<typeof rootLoader>('root')
  const publicUrl = root?.publicUrl ?? ''
  const url = `${publicUrl}/blog/${post.slug}`
  const structuredData = {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.excerpt ?? undefined,
    image: [`${publicUrl}${post.cardPath}`],
    datePublished: post.publishedAt ?? undefined,
    dateModified: post.updatedAt,
    author: post.authorName ? { '@type': 'Person', name: post.authorName } : undefined,
    publisher: { '@type': 'Organization', name: root?.siteName ?? 'Aether', url: publicUrl || undefined },
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    keywords: post.tags.length ? post.tags.join(', ') : undefined,
    articleSection: post.category ?? undefined,
  }
  return (
    <main>
      <script type="application/ld+json" nonce={root?.cspNonce} dangerouslySetInnerHTML={{ __html: jsonLdText(structuredData) }} />
      <article>
        <img
          src={post.coverUrl}
          alt={`Cover image for ${post.title}`}
          width={1200}
          height={400}
          // The largest paint of the page.
          fetchPriority="high"
          className="h-[300px] w-full object-cover md:h-[400px]"
        />
        <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
          <Link to="/blog" className="inline-flex items-center gap-2 text-sm text-muted-foreground hover:text-foreground">
            <ArrowLeft className="size-4" aria-hidden="true" /> Back to Blog
          </Link>
          <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">{post.title}</h1>
          <div className="mt-4 flex flex-wrap gap-x-6 gap-y-1 text-sm text-muted-foreground">
            <span>{post.authorName || 'Unknown Author'}</span>
            <span>
              Published:{' '}
              {post.publishedAt && post.publishedLabel ? <time dateTime={post.publishedAt}>{post.publishedLabel}</time> : 'Recently'}
            </span>
          </div>
          {post.excerpt ? <p className="mt-6 text-lg text-muted-foreground italic">{post.excerpt}</p> : null}
          <div className="mt-8" dangerouslySetInnerHTML={{ __html: post.contentHtml }} />
          <div className="mt-12 border-t pt-8">
            <Button asChild variant="outline">
              <Link to="/blog">
                <ArrowLeft aria-hidden="true" /> Back to Blog
              </Link>
            </Button>
          </div>
        </div>
      </article>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-2xl flex-col items-center justify-center gap-6 px-4 py-16 text-center">
      <h1 className="text-3xl font-bold tracking-tight">{notFound ? 'Post not found' : 'Failed to load post'}</h1>
      <Button asChild>
        <Link to="/blog">
          <ArrowLeft aria-hidden="true" /> Back to Blog
        </Link>
      </Button>
    </main>
  )
}
