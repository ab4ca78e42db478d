import { useFetcher, useLocation } from 'react-router'
import { Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'

/** Accept / reject buttons for analytics cookies; used by the banner and the cookie policy page. */
function ConsentButtons({ className }: { className?: string }) {
  const fetcher = useFetcher()
  const location = useLocation()
  return (
    <fetcher.Form method="post" action="/preferences" className={className ?? 'flex gap-2'}>
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      <Button type="submit" name="consent" value="rejected" variant="outline" size="sm">
        Reject analytics
      </Button>
      <Button type="submit" name="consent" value="accepted" size="sm">
        Accept analytics
      </Button>
    </fetcher.Form>
  )
}

/** Shown only when an analytics id is configured and the visitor has not chosen yet. */
export function CookieConsentBanner() {
  return (
    <section
      aria-label="Cookie consent"
      className="fixed inset-x-3 bottom-3 z-50 mx-auto max-w-2xl rounded-lg border bg-card p-4 text-sm text-card-foreground shadow-lg sm:inset-x-6"
    >
      <p>
        We use essential cookies to keep you signed in. With your permission we also use analytics cookies (<code>_ga</code>,{' '}
        <code>_gid</code>) to learn how the site is used. See our{' '}
        <Link to="/cookies" className="text-primary underline underline-offset-2">
          Cookie Policy
        </Link>
        .
      </p>
      <ConsentButtons className="mt-3 flex flex-wrap justify-end gap-2" />
    </section>
  )
}
