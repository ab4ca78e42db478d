import type { AppLoadContext } from 'react-router'
import { pageCaller } from '#app/lib/guards.server.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { Run } from '#server/features/runs/run.service.ts'

/**
 * Where "Run again" runs it: on the member's own local runner the run ran on, while it is
 * connected (no credits); else in the cloud, asking first, with what it costs (a credit a row).
 */
export async function runAgainView(services: AppLoadContext['services'], user: SessionUser, run: Run) {
  if (run.deviceId) {
    const runners = await services.devices.runnersFor(pageCaller(user), run.deviceId)
    const runner = runners.find((candidate) => candidate.id === run.deviceId && candidate.connected && candidate.mine)
    if (runner) return { where: 'device' as const, name: runner.name }
  }
  return { where: 'cloud' as const, cost: Math.max(1, run.dataRows.length), credits: user.workspace?.credits ?? user.profile.credits }
}
export type RunAgainView = Awaited<ReturnType<typeof runAgainView>>
