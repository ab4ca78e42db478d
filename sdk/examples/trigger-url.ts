import { createAetherClient, dataOf } from '@aether/sdk'

const aether = createAetherClient({ server: 'https://aether.example.com' })
const secret = process.env.AETHER_TRIGGER_SECRET! // the trg_... at the end of the trigger URL

const run = await dataOf(
  aether.POST('/triggers/{secret}', {
    params: { path: { secret } },
    body: { inputs: { customer: 'Ada Lovelace' } },
  }),
)
console.log(`Run ${run.id} is ${run.status}`) // queued; the run page and webhooks tell how it ends
