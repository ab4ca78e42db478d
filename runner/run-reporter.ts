import { screenshotName, type RunFiles } from '#server/features/runs/run-files.ts'
import type { RunReporting } from '#server/features/runs/run-progress.ts'
import type { RunProgress } from '#server/features/runs/run-queue.ts'
import type { RunStep } from '#common/run-steps.ts'
import { ApiError, dataOf, type AetherClient } from '#sdk'

/** A picture's bytes as a body (Playwright's buffers are never shared memory). */
const imageOf = (bytes: Uint8Array, type: 'image/png' | 'image/jpeg') => new Blob([bytes as Uint8Array<ArrayBuffer>], { type })

/** What one progress report of the client-run API takes at most (common/automations.ts runProgressSchema). */
const MAX_LOG_LINES_PER_REPORT = 200
const MAX_ROWS_PER_REPORT = 1000
const MAX_STEPS_PER_REPORT = 200

/**
 * The cloud executor's reporting, over the client-run API (`/api/runs/{id}/progress`, `/finish`,
 * `/screenshots`): the local runner runs the same executor as the cloud worker and reports the
 * way the extension does. A report the server refuses because the run has ended (the member
 * cancelled it) stops the execution, as a lost lease does in the cloud.
 */
export function createRunReporter(api: AetherClient) {
  // Screenshots wait here until the progress report that names them (with their label and step).
  const pictures = new Map<string, Uint8Array>()
  // Step pictures already uploaded, by name.
  const uploaded = new Set<string>()

  const chunks = <T>(items: T[], size: number): T[][] => {
    const list: T[][] = []
    for (let index = 0; index < items.length; index += size) list.push(items.slice(index, index + size))
    return list.length ? list : [[]]
  }

  /** Sends the report (in parts when it is large); with `finish`, the last part ends the run and its answer is returned. */
  async function send(
    runId: string,
    progress: RunProgress,
    finish?: {
      status: 'succeeded' | 'failed'
      error?: string
      rowOutcomes?: RunProgress['rowOutcomes']
      dataRows?: RunProgress['dataRows']
    },
  ): Promise<object> {
    const notes: { level: 'warn'; message: string }[] = []
    for (const screenshot of progress.screenshots ?? []) {
      const png = pictures.get(screenshot.file)
      if (!png) continue
      pictures.delete(screenshot.file)
      // A picture that does not arrive is said in the log; it does not stop the run.
      await upload(runId, { name: screenshot.name, step: screenshot.step }, imageOf(png, 'image/png')).catch((error: unknown) => {
        notes.push({ level: 'warn', message: `The screenshot "${screenshot.name}" could not be uploaded: ${(error as Error).message}` })
      })
    }
    // The timeline's pictures go first; an entry whose picture did not arrive is sent without it. A
    // report sent again (the last one failed) names the pictures that went up then.
    const steps: RunStep[] = []
    for (const step of progress.timeline ?? []) {
      if (!step.screenshot || uploaded.has(step.screenshot)) {
        steps.push(step)
        continue
      }
      const jpeg = pictures.get(step.screenshot)
      const shot = Number(step.screenshot.replace(/\D/g, ''))
      const kept =
        jpeg !== undefined &&
        (await upload(runId, { step: step.step, shot }, imageOf(jpeg, 'image/jpeg'))
          .then(() => true)
          .catch(() => false))
      pictures.delete(step.screenshot)
      if (kept) uploaded.add(step.screenshot)
      steps.push(kept ? step : { ...step, screenshot: null })
    }
    // The finish report adds its error to the log itself.
    const log = [...(progress.log ?? []), ...notes]
      .filter((line) => !(finish?.error && line.level === 'error' && line.message === finish.error))
      .map(({ level, message }) => ({ level, message }))
    const logs = chunks(log, MAX_LOG_LINES_PER_REPORT)
    const rows = chunks(progress.extracted ?? [], MAX_ROWS_PER_REPORT)
    const timeline = chunks(steps, MAX_STEPS_PER_REPORT)
    const reports = Math.max(logs.length, rows.length, timeline.length)
    let answer: object = {}
    for (let index = 0; index < reports; index++) {
      const body = {
        actionsPerformed: progress.actionsPerformed,
        log: logs[index] ?? [],
        extracted: rows[index] ?? [],
        steps: timeline[index] ?? [],
      }
      const last = index === reports - 1
      const run = { params: { path: { id: runId } } }
      answer =
        last && finish
          ? await dataOf(api.POST('/runs/{id}/finish', { ...run, body: { ...body, ...finish } }))
          : await dataOf(api.POST('/runs/{id}/progress', { ...run, body }))
    }
    return answer
  }

  /** Sends a screenshot (a PNG) or a timeline picture (a JPEG, its `shot`) as the run's, after step `step`. */
  const upload = (runId: string, query: { step: number; name?: string; shot?: number }, image: Blob) =>
    api.POST('/runs/{id}/screenshots', {
      params: { path: { id: runId }, query },
      body: image,
      headers: { 'content-type': image.type },
    })

  /** A refusal that means the run is no longer this runner's to report on. */
  const ended = (error: unknown) => error instanceof ApiError && (error.status === 400 || error.status === 404)

  const reporter: RunReporting & Pick<RunFiles, 'saveScreenshot' | 'screenshotName'> = {
    screenshotName,
    saveScreenshot(_runId, name, png) {
      pictures.set(name, png)
      return Promise.resolve()
    },
    async progress(runId, _workerId, progress) {
      try {
        await send(runId, progress)
        return true
      } catch (error) {
        if (ended(error)) return false
        throw error
      }
    },
    async finish(runId, _workerId, outcome, progress) {
      try {
        return await send(runId, progress ?? { actionsPerformed: 0 }, {
          status: outcome.status,
          ...(outcome.status === 'failed' ? { error: outcome.error } : {}),
          ...(progress?.rowOutcomes?.length ? { rowOutcomes: progress.rowOutcomes } : {}),
          ...(progress?.dataRows?.length ? { dataRows: progress.dataRows } : {}),
        })
      } catch (error) {
        if (ended(error)) return null
        throw error
      }
    },
  }
  return reporter
}
