import { Eye } from 'lucide-react'
import { useEffect } from 'react'
import { Form, useNavigation, useRevalidator } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'

export interface Viewing {
  /** The member the admin is viewing the app as. */
  email: string
  /** When the view ends (ISO): the page asks the server again then. */
  until: string
  /** The same time as the banner says it ("14:05", UTC), worked out by the server so both renders agree. */
  endsAt: string
  siteName: string
}

/**
 * On every page while an admin views the app as a member (docs/decisions/064): whose app this is,
 * that it is read-only and until when, and "End viewing" (a plain form post, so it works before
 * JavaScript). When the time is up the page asks the server again, which ends the view and says so.
 */
export function ViewingBanner({ email, until, endsAt, siteName }: Viewing) {
  const navigation = useNavigation()
  const { revalidate } = useRevalidator()
  const ending = navigation.state !== 'idle' && navigation.formAction === '/view-as/end'
  useEffect(() => {
    const timer = setTimeout(() => void revalidate(), Math.max(0, new Date(until).getTime() - Date.now()) + 1000)
    return () => clearTimeout(timer)
  }, [until, revalidate])
  return (
    <section
      aria-label="Viewing as a member"
      className="sticky top-0 z-50 flex flex-col gap-2 border-b border-amber-500/60 bg-amber-100 px-4 py-2 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-center sm:gap-4 dark:bg-amber-950 dark:text-amber-50"
    >
      <p role="status" className="flex items-start gap-2">
        <Eye className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          You are viewing {siteName} as <strong className="[overflow-wrap:anywhere]">{email}</strong>, read-only. Ends at {endsAt} UTC.
        </span>
      </p>
      <Form method="post" action="/view-as/end" className="shrink-0">
        <Button type="submit" size="sm" variant="outline" disabled={ending} className="border-amber-700 bg-transparent">
          {ending ? 'Ending...' : 'End viewing'}
        </Button>
      </Form>
    </section>
  )
}
