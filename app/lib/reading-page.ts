import type { UIMatch } from 'react-router'
import type { ScriptsStart } from '#app/components/paint-first-scripts.tsx'

type ScriptsHandle = { scripts?: ScriptsStart }

/**
 * The handle of a page people read rather than use (no text field to fill in): its JavaScript
 * waits for the visitor's first interaction (docs/decisions/037-reading-pages-hydrate-on-interaction.md).
 */
export const readingPage = { scripts: 'on-interaction' } as const satisfies ScriptsHandle

/** When the page's modules load: at the first interaction on a reading page, unless a message waits to be shown. */
export function scriptsStart(matches: UIMatch[], flashWaiting: boolean): ScriptsStart {
  const reading = matches.some((match) => (match.handle as ScriptsHandle | undefined)?.scripts === 'on-interaction')
  return reading && !flashWaiting ? 'on-interaction' : 'after-paint'
}
