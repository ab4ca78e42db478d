// @aether/sdk: a typed client of the Aether API, generated from its OpenAPI document (sdk/README.md).
export { createAetherClient, dataOf, type AetherClient, type AetherClientOptions } from './client.ts'
export { ApiError, TokenRefusedError } from './errors.ts'
export {
  PairingEndedError,
  pollPairing,
  startPairing,
  waitForApproval,
  type PairedDevice,
  type Pairing,
  type PairingAnswer,
} from './pairing.ts'
export { serverAddress } from './server-address.ts'
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookMessage } from './webhooks.ts'
export type { components, operations, paths } from './schema.ts'
