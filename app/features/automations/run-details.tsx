import { Download } from 'lucide-react'
import type { ReactNode } from 'react'
import { DataTable } from '#app/components/data-table.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/lib/cn.ts'
import { sizeInWords } from '#app/lib/size-in-words.ts'
import type { RunDetail } from './run-view.server.ts'
import { RowStatusBadge, RUN_TRIGGER_LABELS, RUNNER_LABELS, RunStatusBadge } from './run-status.tsx'

/** Status, trigger, runner, times, actions and credits of one run. */
export function RunFacts({ run }: { run: RunDetail }) {
  const facts: [string, ReactNode][] = [
    ['Status', <RunStatusBadge status={run.status} />],
    ['Trigger', RUN_TRIGGER_LABELS[run.trigger]],
    ['Runner', RUNNER_LABELS[run.runner]],
    ['Created', <time dateTime={run.created.iso}>{run.created.label}</time>],
    ['Started', run.started ? <time dateTime={run.started.iso}>{run.started.label}</time> : 'Not yet'],
    ['Finished', run.finished ? <time dateTime={run.finished.iso}>{run.finished.label}</time> : 'Not yet'],
    ['Duration', run.duration ?? '—'],
    ['Actions performed', `${run.actionsPerformed} of ${run.stepCount}`],
    ['Credits charged', String(run.creditsCharged)],
    ['Credits refunded', run.refunded && run.creditsCharged > 0 ? String(run.creditsCharged) : '0'],
    ...(run.resumedFrom
      ? ([
          [
            'Resumes',
            <a href={`/dashboard/runs/${run.resumedFrom}`} className="text-primary hover:underline">
              the run that stopped
            </a>,
          ],
        ] as [string, ReactNode][])
      : []),
    ...(run.inputs.length
      ? ([
          [
            'Inputs',
            <ul className="space-y-0.5">
              {run.inputs.map((input) => (
                <li key={input.name}>
                  <span className="font-mono text-xs">{input.name}</span>: {input.value}
                </li>
              ))}
            </ul>,
          ],
        ] satisfies [string, ReactNode][])
      : []),
  ]
  return (
    <Card>
      <CardContent className="pt-6">
        <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
          {facts.map(([term, value]) => (
            <div key={term} className="space-y-1">
              <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{term}</dt>
              <dd className="text-sm">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  )
}

const LEVEL_STYLES = {
  info: 'text-muted-foreground',
  warn: 'text-amber-800 dark:text-amber-300',
  error: 'text-red-700 dark:text-red-300',
} as const

/** The run's log: one timestamped line per event. */
export function RunLog({ log }: { log: RunDetail['log'] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Log</CardTitle>
        <CardDescription>Times in UTC.</CardDescription>
      </CardHeader>
      <CardContent>
        {log.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing logged yet.</p>
        ) : (
          <ol aria-label="Log lines" className="max-h-96 space-y-1 overflow-y-auto rounded-md bg-muted/50 p-3 font-mono text-xs">
            {log.map((line) => (
              <li key={line.key} className="flex gap-3">
                <time dateTime={line.at.iso} className="shrink-0 text-muted-foreground tabular-nums">
                  {line.at.label}
                </time>
                <span className={cn('w-12 shrink-0 uppercase', LEVEL_STYLES[line.level])}>{line.level}</span>
                <span className="min-w-0 break-words whitespace-pre-wrap">{line.message}</span>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  )
}

/** The data the run extracted, as a table, with both downloads. */
export function ExtractedData({ runId, extracted }: { runId: string; extracted: RunDetail['extracted'] }) {
  const { columns, rows, total } = extracted
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="space-y-1.5">
          <CardTitle level={2}>Extracted Data</CardTitle>
          <CardDescription>
            {total === 0
              ? 'This run has not extracted any data.'
              : total > rows.length
                ? `The first ${rows.length} of ${total} rows; the downloads have all of them.`
                : total === 1
                  ? '1 row'
                  : `${total} rows`}
          </CardDescription>
        </div>
        {total > 0 ? (
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <a href={`/api/runs/${runId}/extracted.csv`} download>
                <Download aria-hidden="true" /> Download CSV
              </a>
            </Button>
            <Button asChild variant="outline" size="sm">
              <a href={`/api/runs/${runId}/extracted.json`} download>
                <Download aria-hidden="true" /> Download JSON
              </a>
            </Button>
          </div>
        ) : null}
      </CardHeader>
      {total > 0 ? (
        <CardContent>
          <DataTable caption="Extracted data" headers={columns} className="max-h-[32rem] overflow-auto">
            {rows.map((row, index) => (
              <tr key={index} className="border-b align-top last:border-0">
                {columns.map((column) => (
                  <td key={column} data-label={column} className="max-w-md px-3 py-2 break-words">
                    {row[column] ?? <span className="text-muted-foreground">—</span>}
                  </td>
                ))}
              </tr>
            ))}
          </DataTable>
        </CardContent>
      ) : null}
    </Card>
  )
}

/** Screenshots the page loads at once; the rest load as they are scrolled to. */
const EAGER_SCREENSHOTS = 4

/** The screenshots a run took (the cloud worker, or the extension or runner that ran it), each after its step. */
export function Screenshots({ screenshots }: { screenshots: RunDetail['screenshots'] }) {
  if (screenshots.length === 0) return null
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Screenshots</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-4 sm:grid-cols-2">
          {screenshots.map((shot, index) => (
            <li key={shot.url}>
              <figure className="space-y-2">
                <a href={shot.url} target="_blank" rel="noopener" className="block overflow-hidden rounded-md border">
                  <img
                    src={shot.url}
                    alt={`Screenshot after step ${shot.step}`}
                    // The first few load at once, wherever the card is on the page (the timeline may push it far down).
                    loading={index < EAGER_SCREENSHOTS ? 'eager' : 'lazy'}
                    decoding="async"
                    width={1280}
                    height={720}
                    className="h-auto w-full bg-muted"
                  />
                </a>
                <figcaption className="text-xs text-muted-foreground">
                  Step {shot.step}
                  {shot.name && shot.name !== `Step ${shot.step}` ? `: ${shot.name}` : ''}
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}

/** The data rows a "for each row" block went through, each with its outcome, and the download of all of them. */
export function DataRows({ runId, data }: { runId: string; data: RunDetail['dataRows'] }) {
  if (data.total === 0) return null
  const { counts } = data
  const summary = [
    `${counts.done} done`,
    counts.failed ? `${counts.failed} failed` : null,
    counts.skipped ? `${counts.skipped} skipped` : null,
    counts['not run'] ? `${counts['not run']} not run` : null,
  ]
    .filter(Boolean)
    .join(', ')
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="space-y-1.5">
          <CardTitle level={2}>Data Rows</CardTitle>
          <CardDescription>
            {data.total} row{data.total === 1 ? '' : 's'}: {summary}.
            {data.total > data.rows.length ? ` The first ${data.rows.length} are shown; the download has all of them.` : ''}
          </CardDescription>
        </div>
        <Button asChild variant="outline" size="sm">
          <a href={`/api/runs/${runId}/rows.csv`} download>
            <Download aria-hidden="true" /> Download rows CSV
          </a>
        </Button>
      </CardHeader>
      <CardContent>
        <DataTable
          caption="Data rows and their outcomes"
          headers={['Row', 'Outcome', ...data.columns]}
          className="max-h-[32rem] overflow-auto"
        >
          {data.rows.map((row) => (
            <tr key={row.row} className="border-b align-top last:border-0">
              <td data-label="Row" className="px-3 py-2 tabular-nums">
                {row.row}
              </td>
              <td data-label="Outcome" className="max-w-md px-3 py-2">
                <RowStatusBadge status={row.status} />
                {row.error ? <p className="mt-1 text-xs break-words text-muted-foreground">{row.error}</p> : null}
              </td>
              {data.columns.map((column) => (
                <td key={column} data-label={column} className="max-w-xs px-3 py-2 break-words">
                  {row.values[column] ?? ''}
                </td>
              ))}
            </tr>
          ))}
        </DataTable>
      </CardContent>
    </Card>
  )
}

/** The files the run kept (downloads, saved tables), each a download: a site's file is never opened on our pages. */
export function RunFilesCard({ files }: { files: RunDetail['files'] }) {
  if (files.length === 0) return null
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Files</CardTitle>
        <CardDescription>
          {files.length} file{files.length === 1 ? '' : 's'} the run kept. They download as they came: open them only if you trust the site.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {files.map((file) => (
            <li key={file.url} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="break-all">
                {file.name}{' '}
                <span className="text-muted-foreground">
                  · step {file.step} · {sizeInWords(file.size)}
                </span>
              </span>
              <Button asChild variant="outline" size="sm">
                <a href={file.url} download={file.name} aria-label={`Download ${file.name}`}>
                  <Download aria-hidden="true" /> Download
                </a>
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}
