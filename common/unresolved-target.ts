import { describeAlternative, type Target, type TargetAlternative } from './targets.ts'

// How a failure message names a target that was not found: shared by the server's resolver and the extension's.

/** An alternative as a message names it: in words, CSS and XPath too (members never read selectors: docs/decisions/042). */
const named = (alternative: TargetAlternative) => describeAlternative(alternative)

/** A target as a failure message names it: by its first alternative. */
export const targetName = (target: Target) => (target[0] ? named(target[0]) : 'the element')

/**
 * Why a target was not found, in words. One alternative: 'no element matches Element “go” (found by the page’s structure)' or '2 elements
 * match Button named “Sign in”'; several: each with what it found.
 */
export function whyUnresolved(target: Target, counts: number[], within: string): string {
  const found = (index: number) => {
    const count = counts[index] ?? 0
    return count < 0 ? 'not a valid selector' : count === 0 ? 'no element' : `${count} elements`
  }
  const [only] = target
  if (target.length === 1 && only) {
    const count = counts[0] ?? 0
    if (count < 0) return `${named(only)} is not a valid selector`
    if (count === 0) return `no element matches ${named(only)} within ${within}`
    return `${count} elements match ${named(only)}; a step acts on exactly one`
  }
  return `no way to find the element worked within ${within} (${target.map((alternative, index) => `${named(alternative)}: ${found(index)}`).join('; ')})`
}
