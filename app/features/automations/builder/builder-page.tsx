import { ArrowLeft } from 'lucide-react'
import { useEffect, type ReactNode } from 'react'
import { Link } from 'react-router'
import type { SubmissionResult } from '@conform-to/react'
import { toast } from '#app/lib/toast.ts'
import type { StepIssue } from '#common/automation-steps.ts'
import type { LocalRunner } from './automation-details.tsx'
import { AutomationBuilder, type BuilderAutomation } from './automation-builder.tsx'
import type { BuilderAssist, SuggestionsView } from './builder-view.server.ts'

export interface SaveAnswer {
  result: SubmissionResult<string[]>
  stepIssues: StepIssue[]
  limitMessage: string | null
  error: string | null
}

/** The page around the builder: title, the way back, and the save's error toast. */
export function BuilderPage({
  title,
  intro,
  automation,
  memberTimeZone,
  version,
  plan,
  runLimits,
  runners,
  assist,
  suggestions,
  answer,
  children,
}: {
  title: string
  intro: string
  automation: BuilderAutomation
  /** The zone in the member's settings (null: their browser's). */
  memberTimeZone: string | null
  /** Changes with every save, so the editor starts again from what was stored. */
  version: string
  plan: { name: string; actionLimit: number | null }
  runLimits: { timeLimitSeconds: number; maxActions: number }
  runners: LocalRunner[]
  assist: BuilderAssist
  suggestions: SuggestionsView | null
  answer?: SaveAnswer
  /** Cards of a saved automation shown under the builder (its trigger URL). */
  children?: ReactNode
}) {
  useEffect(() => {
    if (answer?.error) toast.error('Could not save the automation', { description: answer.error })
  }, [answer])
  return (
    <main className="space-y-6">
      <div className="space-y-2">
        <Link to="/dashboard" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="size-4" aria-hidden="true" /> Automation History
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="text-muted-foreground">{intro}</p>
      </div>
      <AutomationBuilder
        key={version}
        automation={automation}
        memberTimeZone={memberTimeZone}
        plan={plan}
        runLimits={runLimits}
        runners={runners}
        assist={assist}
        suggestions={suggestions}
        lastResult={answer?.result}
        serverIssues={answer?.stepIssues}
        limitMessage={answer?.limitMessage}
      />
      {children}
    </main>
  )
}
