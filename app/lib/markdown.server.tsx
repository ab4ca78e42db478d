import { renderToStaticMarkup } from 'react-dom/server'
import { Markdown } from '#app/components/markdown.tsx'

/**
 * A post's Markdown as HTML, rendered on the server with the same component the admin preview
 * uses, so the reader's browser never downloads the Markdown parser (docs/decisions/008).
 * React escapes every text and attribute, raw HTML is skipped and links are filtered by
 * common/safe-url.ts, so the result is safe to insert as HTML.
 */
export function renderMarkdown(markdown: string): string {
  return renderToStaticMarkup(<Markdown>{markdown}</Markdown>)
}
