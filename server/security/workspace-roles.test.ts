/**
 * Property tests of the workspace dimension (docs/decisions/021): whatever a request holds, on
 * every route whose rule names a workspace role (`x-access.workspaceRole`), someone whose role in
 * the named workspace is below it gets 403, and someone who is not in it at all gets 403, before
 * the body, query or path parameters are looked at. The rules come from the OpenAPI document.
 */
import fc from 'fast-check'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { hasRole, type WorkspaceRole } from '#common/workspaces.ts'
import { workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { operationSample, operationsOf, sampleRequest, type OpenApiDocument } from '#server/testing/arbitrary-requests.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

const RUNS_PER_ROUTE = 15

const t: TestApp = await createTestApp({ apiRateLimit: 1_000_000 })
afterAll(async () => {
  await t.close()
})

const document = (await (await t.request('/api/openapi.json')).json()) as OpenApiDocument
const workspaceOperations = operationsOf(document).flatMap((operation) =>
  operation.access !== 'anyone' && operation.access.workspaceRole ? [{ ...operation, role: operation.access.workspaceRole }] : [],
)

const owner = await t.signUp()
await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
const created = await t.request('/api/workspaces', { token: owner.token, body: { name: 'Property team' } })
const team = ((await created.json()) as { data: { id: string } }).data.id
const people = { viewer: await t.signUp(), member: await t.signUp(), admin: await t.signUp(), outsider: await t.signUp() }
for (const role of ['viewer', 'member', 'admin'] as const) {
  await t.db.insert(workspaceMembers).values({ workspaceId: team, userId: people[role].id, role })
}

type Person = keyof typeof people
const PEOPLE: Person[] = ['viewer', 'member', 'admin', 'outsider']

/** The refusal a person gets in the team on a route needing `needed`; null when they may go on. */
const refusedWith = (person: Person, needed: WorkspaceRole): 403 | null => (person === 'outsider' || !hasRole(person, needed) ? 403 : null)

describe('workspace roles come before validation, for any request', () => {
  it('reads the workspace routes and their roles from the document', () => {
    expect(workspaceOperations.length).toBeGreaterThan(20)
    for (const needed of ['viewer', 'member', 'admin', 'owner'] as const) {
      expect(
        workspaceOperations.some((operation) => operation.role === needed),
        needed,
      ).toBe(true)
    }
  })

  describe.each(workspaceOperations.map((operation) => [operation.key, operation] as const))('%s', (_key, operation) => {
    it('outsiders naming the workspace, and roles below the rule, get 403', async () => {
      const sample = fc.tuple(fc.constantFrom(...PEOPLE), operationSample(operation))
      await fc.assert(
        fc.asyncProperty(sample, async ([person, request]) => {
          const expected = refusedWith(person, operation.role)
          if (expected === null) return
          const headers = new Headers({
            'x-forwarded-for': '203.0.113.78',
            authorization: `Bearer ${people[person].token}`,
            'x-workspace-id': team,
          })
          const sent = sampleRequest(operation, request, headers)
          const response = await t.app.request(sent)
          const text = await response.text()
          expect(response.status, `${person} ${operation.method} ${sent.url.slice(0, 200)}: ${text.slice(0, 200)}`).toBe(expected)
        }),
        { numRuns: RUNS_PER_ROUTE },
      )
    }, 60_000)
  })
})
