import { MonitorPlay } from 'lucide-react'
import { useId } from 'react'
import { Form, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'

/** One of the member's own connected local runners, where "Run on …" may queue a run. */
export interface OwnRunner {
  id: string
  name: string
}

/**
 * "Run on …" of My Automations: queues a run for one of the member's own connected local runners,
 * which takes it up while `serve` runs on its machine (no credits). With several, a list to choose.
 */
export function RunOnRunner({ automation, runners }: { automation: { id: string; name: string }; runners: OwnRunner[] }) {
  const id = useId()
  const navigation = useNavigation()
  const busy =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'run-device' &&
    navigation.formData.get('automationId') === automation.id
  const [only] = runners
  if (!only) return null
  return (
    <Form method="post" preventScrollReset className="flex items-center gap-1">
      <input type="hidden" name="intent" value="run-device" />
      <input type="hidden" name="automationId" value={automation.id} />
      {runners.length === 1 ? (
        <input type="hidden" name="deviceId" value={only.id} />
      ) : (
        <>
          <label htmlFor={`${id}-runner`} className="sr-only">
            Local runner for {automation.name}
          </label>
          <select id={`${id}-runner`} name="deviceId" className="h-8 rounded-md border bg-background px-2 text-sm">
            {runners.map((runner) => (
              <option key={runner.id} value={runner.id}>
                {runner.name}
              </option>
            ))}
          </select>
        </>
      )}
      <Button
        type="submit"
        variant="outline"
        size="sm"
        disabled={busy}
        aria-label={runners.length === 1 ? `Run ${automation.name} on “${only.name}”` : `Run ${automation.name} on the chosen local runner`}
      >
        <MonitorPlay aria-hidden="true" /> {busy ? 'Queuing...' : runners.length === 1 ? `Run on “${only.name}”` : 'Run on runner'}
      </Button>
    </Form>
  )
}
