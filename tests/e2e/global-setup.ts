import { ADMIN, BASE_URL, SANDBOX_URL } from './credentials.ts'

/**
 * The suite's two servers are shared by every spec, and many specs call the API as the one seeded
 * admin (reading the mail outbox, deleting what they made): under the default general limit of 60
 * requests a minute per user, parallel specs would refuse each other with 429. The limit itself is
 * tested on servers of its own (server/http/api-rate-limit.test.ts, two-processes.test.ts, and the
 * isolated servers of some specs), so here it is raised to its maximum, as an admin would.
 */
export default async function raiseApiRateLimit() {
  for (const base of [BASE_URL, SANDBOX_URL]) {
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.254' }
    const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers, body: JSON.stringify(ADMIN) })
    if (!login.ok) throw new Error(`global setup: admin sign-in on ${base} answered ${login.status}`)
    const { data } = (await login.json()) as { data: { token: string } }
    const auth = { ...headers, authorization: `Bearer ${data.token}` }
    const current = (await (await fetch(`${base}/api/settings`, { headers: auth })).json()) as { data: Record<string, unknown> }
    const saved = await fetch(`${base}/api/settings`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ ...current.data, apiRateLimit: 10_000 }),
    })
    if (!saved.ok) throw new Error(`global setup: raising the API rate limit on ${base} answered ${saved.status}`)
  }
}
