/**
 * Runs the page's loaders again. A revalidation cut short by a newer one or by a navigation
 * rejects with an AbortError; that is no error (the newer one brings the data), so it is dropped.
 */
export function revalidateLatest(revalidate: () => Promise<void>): void {
  revalidate().catch((error: unknown) => {
    if (!(error instanceof Error && error.name === 'AbortError')) throw error
  })
}
