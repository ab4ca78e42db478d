/** The element a page's "Skip to content" link moves to: each layout marks where its page's content starts. */
export const MAIN_CONTENT_ID = 'main-content'

/**
 * The first stop of the Tab key on every page: hidden until focused, it moves focus past the header
 * and menus to the content (WCAG 2.4.1, bypass blocks). A plain link, so it works before hydration.
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[100] focus:rounded-md focus:bg-background focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-foreground focus:shadow-lg focus:ring-2 focus:ring-ring focus:outline-none"
    >
      Skip to content
    </a>
  )
}
