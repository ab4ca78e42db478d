/**
 * How much of the cloud browser each workspace used lately (docs/decisions/038, amended): its busy
 * time, halved every `halfLifeMs`. A workspace that just went idle is still remembered, so it
 * yields to one that has not used a place; what it used an hour ago hardly counts any more.
 */
export function createRecentUse(halfLifeMs: number, now: () => number) {
  const used = new Map<string, { ms: number; at: number }>()
  const faded = (entry: { ms: number; at: number }, at: number) => entry.ms * 2 ** (-(at - entry.at) / halfLifeMs)

  function of(workspaceId: string): number {
    const entry = used.get(workspaceId)
    return entry ? faded(entry, now()) : 0
  }

  return {
    /** The workspace's busy time, in ms, as remembered now. */
    of,

    add(workspaceId: string, ms: number) {
      used.set(workspaceId, { ms: of(workspaceId) + ms, at: now() })
    },

    /** Forgets the workspaces whose use has faded below a millisecond (unless `keep` says not yet), so the memory stays small. */
    forgetFaded(keep: (workspaceId: string) => boolean) {
      const at = now()
      for (const [workspaceId, entry] of used) if (faded(entry, at) < 1 && !keep(workspaceId)) used.delete(workspaceId)
    },
  }
}
