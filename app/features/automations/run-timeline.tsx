import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/lib/cn.ts'
import type { RunDetail } from './run-view.server.ts'
import { RowStatusBadge } from './run-status.tsx'

const REPAIRED = {
  alternative: 'another way the step already had',
  similar: 'similar words on the page',
  model: 'the AI model',
} as const

type TimelineStep = RunDetail['timeline']['steps'][number]

/**
 * Every step as the run carried it out (docs/decisions/057): what it did in words, how its element
 * was found, when it started and how long it took, the picture after it, what it extracted, and
 * why it failed. Pictures open full size in a new tab.
 */
export function RunTimeline({ timeline, filesRemoved }: { timeline: RunDetail['timeline']; filesRemoved: RunDetail['filesRemoved'] }) {
  const { steps, total } = timeline
  return (
    <Card role="region" aria-labelledby="run-steps">
      <CardHeader>
        <CardTitle level={2} id="run-steps">
          Steps
        </CardTitle>
        <CardDescription>
          {total === 0
            ? 'No step has run yet.'
            : `${total} step${total === 1 ? '' : 's'} carried out${total > steps.length ? `; the first ${steps.length} are shown` : ''}. Times in UTC.`}
          {filesRemoved ? (
            <>
              {' '}
              The pictures were removed on <time dateTime={filesRemoved.iso}>{filesRemoved.label}</time>, after the time your plan keeps a
              run’s files.
            </>
          ) : null}
        </CardDescription>
      </CardHeader>
      {steps.length > 0 ? (
        <CardContent>
          <ol aria-label="Steps carried out" className="space-y-3">
            {steps.map((step) => (
              <TimelineEntry key={step.key} step={step} />
            ))}
          </ol>
        </CardContent>
      ) : null}
    </Card>
  )
}

function TimelineEntry({ step }: { step: TimelineStep }) {
  const name = `Step ${step.step}${step.round ? `, ${step.round}` : ''}`
  const heading = `Step ${step.step}${step.type ? ` (${step.type}${step.round ? `, ${step.round}` : ''})` : step.round ? `, ${step.round}` : ''}`
  return (
    <li
      aria-label={heading}
      className={cn('flex flex-col gap-3 rounded-md border p-3 sm:flex-row', step.outcome === 'failed' && 'border-red-600/40 bg-red-500/5')}
    >
      {step.screenshotUrl ? (
        <a
          href={step.screenshotUrl}
          target="_blank"
          rel="noopener"
          className="block shrink-0 self-start overflow-hidden rounded border sm:w-48"
          aria-label={`Picture after ${name}, full size (opens in a new tab)`}
        >
          <img
            src={step.screenshotUrl}
            alt={`The page after ${name.toLowerCase()}`}
            loading="lazy"
            decoding="async"
            width={1280}
            height={720}
            className="h-auto w-full bg-muted"
          />
        </a>
      ) : null}
      <div className="min-w-0 flex-1 space-y-1 text-sm">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <h3 className="font-medium">{heading}</h3>
          <RowStatusBadge status={step.outcome} step />
          <span className="text-xs text-muted-foreground tabular-nums">
            <time dateTime={step.at.iso}>{step.at.label}</time> · {step.duration}
          </span>
        </div>
        <p className="break-words">{step.words}</p>
        {step.target ? (
          <p className="break-words text-muted-foreground">
            Found by: {step.target}
            {step.repaired ? ` (repaired: found by ${REPAIRED[step.repaired]})` : ''}
          </p>
        ) : null}
        {step.error ? <p className="break-words text-red-700 dark:text-red-300">{step.error}</p> : null}
        {step.extracted ? <StepExtracted extracted={step.extracted} /> : null}
      </div>
    </li>
  )
}

/** A step's extracted values as lines of "field: value" (the run's Extracted Data table has them all). */
function StepExtracted({ extracted }: { extracted: NonNullable<TimelineStep['extracted']> }) {
  const { fields, rows, total } = extracted
  return (
    <div className="space-y-1">
      <p className="text-muted-foreground">
        Extracted {total} row{total === 1 ? '' : 's'} of {fields.join(', ')}
        {total > rows.length ? `; the first ${rows.length}:` : ':'}
      </p>
      <ul aria-label="Values this step extracted" className="space-y-0.5 rounded-md bg-muted/50 px-2 py-1 text-xs">
        {rows.map((row, index) => (
          <li key={index} className="break-words">
            {fields.map((field, at) => (
              <span key={field}>
                {at > 0 ? ' · ' : ''}
                <span className="text-muted-foreground">{field}:</span> {row[field] ?? '—'}
              </span>
            ))}
          </li>
        ))}
      </ul>
    </div>
  )
}
