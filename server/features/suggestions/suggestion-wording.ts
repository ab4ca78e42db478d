import { describeAlternative, type Target } from '#common/targets.ts'

/** An element as a title names it: “Sign in”, “Email”, “#submit”. */
export function elementName(target: Target): string {
  const [first] = target
  if (!first) return 'the element'
  const words = (() => {
    switch (first.by) {
      case 'role':
        return first.name
      case 'label':
      case 'placeholder':
      case 'text':
        return first.text
      case 'testId':
        return first.id
      case 'column':
        return first.header
      case 'css':
        return first.selector
      case 'xpath':
        return first.path
    }
  })()
  if (!words) return describeAlternative(first).toLowerCase()
  return `“${words.length > 60 ? `${words.slice(0, 59)}…` : words}”`
}

/** '3 s', '1.5 s' (as the run log writes durations). */
export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`
}
