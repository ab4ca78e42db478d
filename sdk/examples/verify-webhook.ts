import { createServer } from 'node:http'
import { verifyWebhook, WebhookVerificationError } from '@aether/sdk'

const seen = new Set<string>() // keep message ids somewhere durable in production

createServer(async (request, response) => {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks) // the bytes as sent: decoding each chunk alone could split a character
  try {
    const message = await verifyWebhook(process.env.AETHER_WEBHOOK_SECRET!, request.headers, body)
    const id = String(request.headers['webhook-id'])
    if (!seen.has(id)) {
      seen.add(id) // a retry or redelivery carries the same id
      if (message.type === 'run.succeeded') console.log('Run done:', message.data)
    }
    response.writeHead(204).end()
  } catch (error) {
    response.writeHead(error instanceof WebhookVerificationError ? 401 : 500).end()
  }
}).listen(8080)
