import { createAetherClient, dataOf } from '@aether/sdk'

const aether = createAetherClient({ server: 'https://aether.example.com', token: process.env.AETHER_API_KEY })

const automations = await dataOf(aether.GET('/automations', { params: { query: { limit: 100 } } }))
const invoices = automations.find((automation) => automation.name === 'Weekly invoices')
if (!invoices) throw new Error('No automation called "Weekly invoices" in this workspace.')

// A cloud run, with a value for each {{input.name}} its steps use.
let run = await dataOf(
  aether.POST('/automations/{id}/runs', {
    params: { path: { id: invoices.id } },
    body: { where: 'cloud', inputs: { month: '2026-11' } },
  }),
)
while (run.status === 'queued' || run.status === 'running') {
  await new Promise((resolve) => setTimeout(resolve, 2000))
  run = await dataOf(aether.GET('/runs/{id}', { params: { path: { id: run.id } } }))
}
if (run.status !== 'succeeded') throw new Error(`The run ${run.status}: ${run.error}`)
console.table(run.extracted) // one object per extracted row, by field name
