import type { LocalRunner } from '#app/features/automations/builder/automation-details.tsx'

/**
 * The builder's "Local runner" card (docs/decisions/032, amended): where the scheduled runs of an
 * automation set to run on a local runner stand. A runner runs what its owner saved or approved;
 * after anyone else's save, its owner approves the current version here. Null: it runs in the cloud.
 */
export function runnerApprovalView(
  automation: { deviceId: string | null; version: number; deviceApprovedVersion: number | null },
  runners: LocalRunner[],
) {
  if (!automation.deviceId) return null
  const runner = runners.find((candidate) => candidate.id === automation.deviceId)
  if (!runner?.connected) return { connected: false as const }
  return {
    connected: true as const,
    name: runner.name,
    owner: runner.owner,
    mine: runner.mine,
    version: automation.version,
    approved: automation.deviceApprovedVersion === automation.version,
  }
}
export type RunnerApprovalView = NonNullable<ReturnType<typeof runnerApprovalView>>
