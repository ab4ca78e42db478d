import type { ComponentProps } from 'react'
import { renderBlogCoverSvg } from '#common/blog-cover.ts'

/**
 * A post's cover: its uploaded image, else the cover generated from its title (the same SVG as
 * /blog/covers/{slug}.svg), carried in the page as a data: address so the largest image of the
 * blog's pages needs no request (docs/decisions/035-inline-stylesheet-and-system-font.md).
 */
export function BlogCover({
  uploadedUrl,
  title,
  ...props
}: { uploadedUrl: string | null; title: string } & Omit<ComponentProps<'img'>, 'src'>) {
  const src = uploadedUrl ?? `data:image/svg+xml,${encodeURIComponent(renderBlogCoverSvg(title))}`
  return <img src={src} {...props} />
}
