import { createTestApp, type TestApp } from './create-test-app.ts'
import { startFakePaddleApi, type FakePaddleApi } from './fake-paddle-api.ts'

/**
 * The real app with Paddle configured, its API stood in for on loopback (fake-paddle-api.ts), so the
 * real Paddle client runs. `close` stops both.
 */
export async function createPaddleTestApp(): Promise<{ t: TestApp; paddle: FakePaddleApi; close: () => Promise<void> }> {
  const paddle = await startFakePaddleApi()
  const t = await createTestApp({
    billing: { PADDLE_CLIENT_TOKEN: 'test_token', PADDLE_WEBHOOK_SECRET: 'whsec', PADDLE_API_KEY: 'pdl_key', PADDLE_API_URL: paddle.url },
  })
  return {
    t,
    paddle,
    close: async () => {
      await t.close()
      await paddle.close()
    },
  }
}
