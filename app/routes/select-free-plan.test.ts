import { describe, expect, it } from 'vitest'
import { action, loader } from './select-free-plan.tsx'

type ActionArgs = Parameters<typeof action>[0]

const PLANS = [
  { slug: 'free', name: 'Free' },
  { slug: 'pro', name: 'Pro' },
]

function post(user: { plan: string } | null) {
  const context = {
    user: user ? { profile: { subscriptionPlan: user.plan } } : null,
    services: { plans: { list: async () => PLANS } },
  }
  const request = new Request('http://localhost:3000/select-free-plan', { method: 'POST' })
  return action({ request, params: {}, context, unstable_pattern: '/select-free-plan' } as unknown as ActionArgs) as Promise<Response>
}

function flashOf(response: Response): { type: string; title: string } {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('aether_flash='))
  if (!cookie) throw new Error('no flash cookie')
  const value = decodeURIComponent(cookie.split(';')[0]!.slice('aether_flash='.length))
  return JSON.parse(decodeURIComponent(escape(atob(value)))) as { type: string; title: string }
}

describe('POST /select-free-plan', () => {
  it('sends a visitor to /auth', async () => {
    const response = await post(null)
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/auth')
  })

  it("takes a Free member to the dashboard with 'Free Plan Selected'", async () => {
    const response = await post({ plan: 'free' })
    expect(response.headers.get('Location')).toBe('/dashboard')
    expect(flashOf(response)).toMatchObject({ type: 'success', title: 'Free Plan Selected' })
  })

  it('never downgrades a paying member: dashboard, plan unchanged, a note instead', async () => {
    const response = await post({ plan: 'pro' })
    expect(response.headers.get('Location')).toBe('/dashboard')
    expect(flashOf(response)).toMatchObject({ type: 'info', title: 'You are on the Pro plan' })
  })

  it('GET goes back to the pricing section', () => {
    const response = loader()
    expect(response.headers.get('Location')).toBe('/#pricing')
  })
})
