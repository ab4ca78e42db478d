import type { RunDetail } from './run-view.server.ts'

/** A queued cloud run's place in line (an estimate: workspaces take turns) and, when its workspace is at its plan's limit, why it waits. */
export function RunQueueNotice({ queue }: { queue: NonNullable<RunDetail['queue']> }) {
  return (
    <div role="status" className="space-y-1 rounded-md border border-slate-500/40 bg-slate-500/10 p-3 text-sm">
      <p className="font-medium">{queue.place}</p>
      {queue.limit ? <p className="text-muted-foreground">{queue.limit}</p> : null}
      <p className="text-xs text-muted-foreground">{queue.turns}</p>
    </div>
  )
}
