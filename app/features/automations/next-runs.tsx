import { useBrowserTimeZone } from '#app/lib/use-browser-time-zone.ts'
import { runTimeLabel } from '#common/time-zones.ts'

/**
 * A schedule's next run times in the member's zone: the one in their settings, else their
 * browser's (UTC until the page runs in the browser). Each time says its zone once, above the list.
 */
export function NextRuns({ runs, memberTimeZone, id }: { runs: readonly string[]; memberTimeZone: string | null; id?: string }) {
  const browserZone = useBrowserTimeZone()
  const zone = memberTimeZone ?? browserZone ?? 'UTC'
  if (runs.length === 0) return null
  return (
    <div id={id} className="text-xs text-muted-foreground">
      <p>Next runs ({zone}):</p>
      <ul>
        {runs.map((iso) => (
          <li key={iso}>
            <time dateTime={iso} className="tabular-nums">
              {runTimeLabel(new Date(iso), zone)}
            </time>
          </li>
        ))}
      </ul>
    </div>
  )
}
