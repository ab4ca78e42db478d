import type { Run } from '#server/features/runs/run.service.ts'

/**
 * A run as an assistant reads it: where it stands, its steps in words as carried out, the data it
 * extracted and the files it kept (links under the site's address; they need the same key).
 */
export function runSummary(run: Run, publicUrl: string) {
  return {
    id: run.id,
    automation: { id: run.automationId, name: run.automationName },
    status: run.status,
    error: run.error,
    waitingForPerson: run.waiting ? { message: run.waiting.message, until: run.waiting.until } : null,
    inputs: run.inputs,
    steps: run.timeline.map((step) => ({
      step: step.step,
      ...(step.round ? { round: step.round } : {}),
      words: step.words,
      outcome: step.outcome,
      ...(step.error ? { error: step.error } : {}),
    })),
    extracted: run.extracted,
    files: run.files.map((file) => ({ name: file.name, size: file.size, url: `${publicUrl}/api/runs/${run.id}/files/${file.file}` })),
    creditsCharged: run.creditsCharged,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    page: `${publicUrl}/dashboard/runs/${run.id}`,
  }
}
