import type * as React from 'react'
import ReactMarkdown, { type Components, type UrlTransform } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { isExternalUrl, safeUrl } from '#common/safe-url.ts'
import { cn } from '#app/lib/cn.ts'

// Rendered on the server and in the browser alike (the admin editor's live preview reuses it).
// No raw HTML ever reaches the page (skipHtml, no rehype-raw) and links follow the spec's allowed
// schemes (common/safe-url.ts); images may come only from our own origin (no external hosts).

const SAME_ORIGIN_PATH = /^\/(?![/\\])/

const urlTransform: UrlTransform = (url, key) => {
  if (key === 'src') return SAME_ORIGIN_PATH.test(url.trim()) && !/[\u0000-\u001f]/.test(url) ? url.trim() : '' // eslint-disable-line no-control-regex -- controls never belong in a path
  return safeUrl(url)
}

const components: Components = {
  // The page's title is its only h1, so a Markdown h1 becomes an h2.
  h1: ({ node: _node, ...props }) => <h2 className="mt-10 mb-4 text-3xl font-bold tracking-tight" {...props} />,
  h2: ({ node: _node, ...props }) => <h2 className="mt-10 mb-4 text-2xl font-semibold tracking-tight" {...props} />,
  h3: ({ node: _node, ...props }) => <h3 className="mt-8 mb-3 text-xl font-semibold" {...props} />,
  h4: ({ node: _node, ...props }) => <h4 className="mt-6 mb-2 text-lg font-semibold" {...props} />,
  h5: ({ node: _node, ...props }) => <h5 className="mt-6 mb-2 font-semibold" {...props} />,
  h6: ({ node: _node, ...props }) => <h6 className="mt-6 mb-2 font-semibold text-muted-foreground" {...props} />,
  p: ({ node: _node, ...props }) => <p className="my-4 leading-7" {...props} />,
  a: ({ node: _node, href, children, ...props }) => {
    const target = href ?? '#'
    const external = isExternalUrl(target)
    return (
      <a
        {...props}
        href={target}
        className="font-medium text-primary underline underline-offset-4 hover:no-underline"
        {...(external ? { target: '_blank', rel: 'noopener noreferrer nofollow' } : {})}
      >
        {children}
      </a>
    )
  },
  ul: ({ node: _node, ...props }) => <ul className="my-4 ml-6 list-disc space-y-2" {...props} />,
  ol: ({ node: _node, ...props }) => <ol className="my-4 ml-6 list-decimal space-y-2" {...props} />,
  li: ({ node: _node, ...props }) => <li className="leading-7" {...props} />,
  blockquote: ({ node: _node, ...props }) => (
    <blockquote className="my-6 border-l-4 border-primary/60 pl-4 text-muted-foreground italic" {...props} />
  ),
  hr: ({ node: _node, ...props }) => <hr className="my-8 border-border" {...props} />,
  pre: ({ node: _node, ...props }) => (
    <pre
      className="my-6 overflow-x-auto rounded-lg border bg-muted p-4 text-sm leading-6 [&>code]:bg-transparent [&>code]:p-0"
      {...props}
    />
  ),
  code: ({ node: _node, className, ...props }) => (
    <code className={cn('rounded bg-muted px-1.5 py-0.5 font-mono text-[0.9em]', className)} {...props} />
  ),
  table: ({ node: _node, ...props }) => (
    <div className="my-6 overflow-x-auto">
      <table className="w-full border-collapse text-sm" {...props} />
    </div>
  ),
  thead: ({ node: _node, ...props }) => <thead className="bg-muted/60" {...props} />,
  th: ({ node: _node, ...props }) => <th className="border px-3 py-2 text-left font-semibold" {...props} />,
  td: ({ node: _node, ...props }) => <td className="border px-3 py-2 align-top" {...props} />,
  img: ({ node: _node, src, alt }) =>
    typeof src === 'string' && src ? (
      <img src={src} alt={alt ?? ''} loading="lazy" className="my-6 h-auto max-w-full rounded-lg" />
    ) : (
      <span>{alt}</span>
    ),
}

export function Markdown({ children, className }: { children: string; className?: string }): React.ReactElement {
  return (
    <div className={cn('max-w-none text-base text-foreground', className)}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={urlTransform} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  )
}
