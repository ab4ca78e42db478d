import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#app/components/ui/tabs.tsx'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { BuilderAssist } from './builder-view.server.ts'
import { DescribeTask } from './describe-task.tsx'
import { InspectPage } from './inspect-page.tsx'
import type { StepData } from './step-drafts.ts'

/** The two ways to build steps without writing them: say the task in words, or point at a page. */
export function AssistCard({
  assist,
  steps,
  stepsReplayable,
  onReceive,
  onAdd,
}: {
  assist: BuilderAssist
  steps: StepData[]
  stepsReplayable: boolean
  onReceive: (steps: StepData[], how: 'replace' | 'append') => void
  onAdd: (step: AutomationStep) => void
}) {
  const first = steps.find((step) => step.type === 'navigate')
  const startUrl = typeof first?.url === 'string' ? first.url : ''
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Build the steps</CardTitle>
        <CardDescription>Say what the automation should do, or open the page and point at what it should use.</CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="describe" className="space-y-4">
          <TabsList aria-label="How to build the steps">
            <TabsTrigger value="describe">Describe your task</TabsTrigger>
            <TabsTrigger value="inspect">Inspect page</TabsTrigger>
          </TabsList>
          <TabsContent value="describe">
            <DescribeTask assist={assist} startUrl={startUrl} hasSteps={steps.length > 0} onUse={onReceive} />
          </TabsContent>
          <TabsContent value="inspect">
            <InspectPage startUrl={startUrl} steps={steps} stepsReplayable={stepsReplayable} onAdd={onAdd} />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  )
}
