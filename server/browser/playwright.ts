/**
 * playwright-core, loaded when a browser is first needed: loading it takes about a third of a
 * second of CPU, which a start does not need (issue 18, cold start). Type imports stay static.
 */
export function loadPlaywright() {
  return import('playwright-core')
}

/** Whether a Playwright call failed by running out of time. Playwright is loaded by then: a page threw it. */
export async function isPlaywrightTimeout(error: unknown): Promise<boolean> {
  const { errors } = await loadPlaywright()
  return error instanceof errors.TimeoutError
}
