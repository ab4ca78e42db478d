import { redirect } from 'react-router'
import type { Route } from './+types/select-free-plan'
import { flashHeader } from '#app/lib/flash.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'

// The Free plan button of the home page's pricing (spec section 4). A plain form POST, so it
// works before hydration; the confirmation rides on the flash cookie to the dashboard.

export function loader() {
  return redirect('/#pricing')
}

export async function action({ context }: Route.ActionArgs) {
  const user = context.user
  if (!user) return redirect('/auth')
  const current = user.profile.subscriptionPlan
  if (current !== 'free') {
    // Plans change only through billing (checkout, webhook or an admin): a paying member keeps theirs.
    const plans = await context.services.plans.list()
    const name = plans.find((plan) => plan.slug === current)?.name ?? current
    const flash = await flashHeader({
      type: 'info',
      title: `You are on the ${name} plan`,
      description: 'Plan changes are made on the Billing page.',
    })
    return redirect('/dashboard', { headers: withCookies([flash]) })
  }
  const flash = await flashHeader({
    type: 'success',
    title: 'Free Plan Selected',
    description: 'You are all set on the Free plan. Upgrade any time from the Billing page.',
  })
  return redirect('/dashboard', { headers: withCookies([flash]) })
}
