import { availableParallelism } from 'node:os'
import { describe, expect, it } from 'vitest'
import { EnvError, loadEnv } from './env.ts'
import { siteConfigFromEnv } from './site-config.ts'

const SECRET = 'x'.repeat(32)

function envError(source: Record<string, string | undefined>): EnvError {
  try {
    loadEnv(source)
  } catch (error) {
    if (error instanceof EnvError) return error
    throw error
  }
  throw new Error(`loadEnv accepted ${JSON.stringify(source)}`)
}

describe('loadEnv', () => {
  it('has working defaults for an empty environment', () => {
    const env = loadEnv({})
    expect(env.NODE_ENV).toBe('development')
    expect(env.PORT).toBe(3000)
    expect(env.HOST).toBe('0.0.0.0')
    expect(env.DATA_DIR).toBe('./data')
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.PUBLIC_URL).toBe('http://localhost:3000')
    expect(env.isProduction).toBe(false)
    expect(env.TRUST_PROXY).toBe(false)
    expect(env.SEED_DEMO).toBe(true)
    expect(env.LOG_LEVEL).toBe('info')
    expect(env.AUTH_SECRET).toBeUndefined()
    expect(env.SEED_ADMIN_PASSWORD).toBeUndefined()
    expect(env.SEED_MEMBER_PASSWORD).toBeUndefined()
    expect(env.googleEnabled).toBe(false)
    // No store listing: 'Get the browser extension' leads to our own /extension page.
    expect(env.EXTENSION_URL).toBeUndefined()
    expect(siteConfigFromEnv(env).links.extension).toBe('/extension')
    expect(siteConfigFromEnv({ ...env, EXTENSION_URL: 'https://chromewebstore.google.com/detail/aether' }).links.extension).toBe(
      'https://chromewebstore.google.com/detail/aether',
    )
  })

  it('reads every value it is given', () => {
    const env = loadEnv({
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/aether',
      PUBLIC_URL: 'https://aether.example.com/',
      DATABASE_URL: 'postgresql://user:pw@db:5432/aether',
      AUTH_SECRET: SECRET,
      VAULT_KEY: `vault-${SECRET}`,
      TRUST_PROXY: 'true',
      SEED_DEMO: 'false',
      SEED_ADMIN_EMAIL: 'boss@example.com',
      SEED_ADMIN_PASSWORD: 'admin-password',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
    })
    expect(env.PORT).toBe(8080)
    expect(env.HOST).toBe('127.0.0.1')
    expect(env.DATA_DIR).toBe('/var/lib/aether')
    // A trailing slash is dropped so URLs can be joined.
    expect(env.PUBLIC_URL).toBe('https://aether.example.com')
    expect(env.DATABASE_URL).toBe('postgresql://user:pw@db:5432/aether')
    expect(env.isProduction).toBe(true)
    expect(env.TRUST_PROXY).toBe(true)
    expect(env.SEED_DEMO).toBe(false)
    expect(env.SEED_ADMIN_EMAIL).toBe('boss@example.com')
    expect(env.SEED_ADMIN_PASSWORD).toBe('admin-password')
    expect(env.googleEnabled).toBe(true)
  })

  it('runs the cloud worker by default, on public addresses only, with the documented limits', () => {
    const env = loadEnv({})
    expect(env.RUN_WORKER).toBe(true)
    expect(env.RUN_CONCURRENCY).toBe(1)
    expect(env.RUN_TIME_LIMIT_MS).toBe(120_000)
    expect(env.RUN_STEP_TIMEOUT_MS).toBe(15_000)
    expect(env.RUN_MAX_ACTIONS).toBe(1000)
    expect(env.RUN_ALLOW_PRIVATE_TARGETS).toBe('none')
    expect(env.CHROMIUM_PATH).toBe('/usr/bin/chromium')
    const custom = loadEnv({
      RUN_WORKER: 'false',
      RUN_CONCURRENCY: '4',
      RUN_TIME_LIMIT_MS: '60000',
      RUN_STEP_TIMEOUT_MS: '5000',
      RUN_MAX_ACTIONS: '50',
      RUN_ALLOW_PRIVATE_TARGETS: 'loopback',
      CHROMIUM_PATH: '/opt/chromium/chrome',
    })
    expect(custom).toMatchObject({
      RUN_WORKER: false,
      RUN_CONCURRENCY: 4,
      RUN_TIME_LIMIT_MS: 60_000,
      RUN_STEP_TIMEOUT_MS: 5000,
      RUN_MAX_ACTIONS: 50,
      RUN_ALLOW_PRIVATE_TARGETS: 'loopback',
      CHROMIUM_PATH: '/opt/chromium/chrome',
    })
  })

  it('derives PUBLIC_URL from PORT when it is unset', () => {
    expect(loadEnv({ PORT: '4321' }).PUBLIC_URL).toBe('http://localhost:4321')
  })

  it('treats empty strings as unset', () => {
    const env = loadEnv({ DATABASE_URL: '', AUTH_SECRET: '', SEED_ADMIN_PASSWORD: '  ', GOOGLE_CLIENT_ID: '' })
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.AUTH_SECRET).toBeUndefined()
    expect(env.SEED_ADMIN_PASSWORD).toBeUndefined()
    expect(env.GOOGLE_CLIENT_ID).toBeUndefined()
  })

  it('accepts postgres:// as well as postgresql://', () => {
    expect(loadEnv({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' }).DATABASE_URL).toBe(
      'postgres://postgres@127.0.0.1:5432/test',
    )
  })

  it('parses the boolean spellings', () => {
    for (const yes of ['true', '1', 'yes']) expect(loadEnv({ SEED_DEMO: yes }).SEED_DEMO).toBe(true)
    for (const no of ['false', '0', 'no']) expect(loadEnv({ SEED_DEMO: no }).SEED_DEMO).toBe(false)
  })

  it('turns Google on only with both the client id and the secret', () => {
    expect(loadEnv({ GOOGLE_CLIENT_ID: 'id' }).googleEnabled).toBe(false)
    expect(loadEnv({ GOOGLE_CLIENT_SECRET: 'secret' }).googleEnabled).toBe(false)
  })

  it.each([
    ['PORT', 'abc'],
    ['PORT', '0'],
    ['PORT', '70000'],
    ['PORT', '3.5'],
    ['DATABASE_URL', 'mysql://x'],
    ['SEED_DEMO', 'maybe'],
    ['TRUST_PROXY', 'sometimes'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'verbose'],
    ['PUBLIC_URL', 'not a url'],
    ['SEED_ADMIN_EMAIL', 'not-an-email'],
    ['SEED_MEMBER_EMAIL', 'not-an-email'],
    ['SEED_ADMIN_PASSWORD', 'short'],
    ['SEED_MEMBER_PASSWORD', 'a'.repeat(129)],
    ['AUTH_SECRET', 'too-short'],
    ['VAULT_KEY', 'too-short'],
    ['VAULT_KEY_PREVIOUS', 'too-short'],
    ['DATABASE_POOL_MAX', '0'],
    ['EXTENSION_URL', 'javascript:alert(1)'],
    ['EXTENSION_URL', 'not a url'],
    ['RUN_WORKER', 'perhaps'],
    ['RUN_CONCURRENCY', '0'],
    ['RUN_CONCURRENCY', '33'],
    ['RUN_TIME_LIMIT_MS', '10'],
    ['RUN_STEP_TIMEOUT_MS', 'soon'],
    ['RUN_MAX_ACTIONS', '0'],
    ['RUN_ALLOW_PRIVATE_TARGETS', 'yes'],
  ])('refuses %s=%s with an EnvError naming the variable', (name, value) => {
    const error = envError({ [name]: value })
    expect(error).toBeInstanceOf(Error)
    expect(error.message).toContain(name)
    // One line per problem, starting with the variable's name.
    expect(error.message).toMatch(new RegExp(`^\\s+${name}: `, 'm'))
  })

  it('names every wrong variable at once', () => {
    const error = envError({ PORT: 'abc', SEED_DEMO: 'maybe' })
    expect(error.message).toContain('PORT')
    expect(error.message).toContain('SEED_DEMO')
  })

  it('requires AUTH_SECRET in production with DATABASE_URL', () => {
    const error = envError({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/aether' })
    expect(error.message).toContain('AUTH_SECRET')
    const vaultKey = `vault-${SECRET}`
    const configured = loadEnv({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/aether', AUTH_SECRET: SECRET, VAULT_KEY: vaultKey })
    expect(configured.AUTH_SECRET).toBe(SECRET)
    expect(configured.VAULT_KEY).toBe(vaultKey)
  })

  it('requires VAULT_KEY in production with DATABASE_URL, and with VAULT_KEY_PREVIOUS', () => {
    expect(envError({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/aether', AUTH_SECRET: SECRET }).message).toMatch(
      /^\s+VAULT_KEY: /m,
    )
    expect(envError({ VAULT_KEY_PREVIOUS: `old-${SECRET}` }).message).toMatch(/^\s+VAULT_KEY: .*VAULT_KEY_PREVIOUS/m)
    expect(loadEnv({}).VAULT_KEY).toBeUndefined()
  })

  it('does not require AUTH_SECRET in development, or in production on the embedded database', () => {
    expect(loadEnv({ DATABASE_URL: 'postgres://db/aether' }).AUTH_SECRET).toBeUndefined()
    expect(loadEnv({ NODE_ENV: 'production' }).isProduction).toBe(true)
  })

  it('runs one server process per CPU on PostgreSQL and one on the embedded database, unless WEB_CONCURRENCY says', () => {
    expect(loadEnv({}).processes).toBe(1)
    expect(loadEnv({ DATABASE_URL: 'postgres://db/aether' }).processes).toBe(availableParallelism())
    expect(loadEnv({ DATABASE_URL: 'postgres://db/aether', WEB_CONCURRENCY: '3' }).processes).toBe(3)
    expect(loadEnv({ WEB_CONCURRENCY: '1' }).processes).toBe(1)
    expect(envError({ WEB_CONCURRENCY: '2' }).message).toMatch(/^\s+WEB_CONCURRENCY: above 1 needs DATABASE_URL/m)
    expect(envError({ DATABASE_URL: 'postgres://db/aether', WEB_CONCURRENCY: '0' }).message).toContain('WEB_CONCURRENCY')
  })

  it('keeps the payment sandbox out of production, except on a loopback address', () => {
    expect(loadEnv({ BILLING_SANDBOX: 'true' }).BILLING_SANDBOX).toBe(true)
    const local = { NODE_ENV: 'production', BILLING_SANDBOX: 'true', HOST: '127.0.0.1' }
    expect(loadEnv({ ...local, PUBLIC_URL: 'http://localhost:3210' }).BILLING_SANDBOX).toBe(true)
    expect(loadEnv({ ...local, PUBLIC_URL: 'http://127.0.0.1:8080' }).BILLING_SANDBOX).toBe(true)
    expect(loadEnv(local).BILLING_SANDBOX).toBe(true)
    expect(envError({ ...local, PUBLIC_URL: 'https://aether.example' }).message).toMatch(/BILLING_SANDBOX: cannot be on in production/)
    // Listening on every interface (the default HOST) is not local, whatever PUBLIC_URL says.
    expect(envError({ NODE_ENV: 'production', BILLING_SANDBOX: 'true' }).message).toMatch(/BILLING_SANDBOX: cannot be on in production/)
    expect(envError({ NODE_ENV: 'production', BILLING_SANDBOX: 'true', PUBLIC_URL: 'http://localhost:3000' }).message).toMatch(
      /BILLING_SANDBOX/,
    )
  })

  it('asks for the webhook secret with a Paddle token, and refuses the sandbox beside real Paddle', () => {
    expect(envError({ PADDLE_CLIENT_TOKEN: 'test_token' }).message).toMatch(/PADDLE_WEBHOOK_SECRET: is required/)
    expect(envError({ PADDLE_CLIENT_TOKEN: 'test_token', PADDLE_WEBHOOK_SECRET: 's', BILLING_SANDBOX: 'true' }).message).toMatch(
      /BILLING_SANDBOX: cannot be on together with PADDLE_CLIENT_TOKEN/,
    )
    const env = loadEnv({ PADDLE_CLIENT_TOKEN: 'live_token', PADDLE_WEBHOOK_SECRET: 'secret', PADDLE_ENVIRONMENT: 'production' })
    expect(env).toMatchObject({ PADDLE_CLIENT_TOKEN: 'live_token', PADDLE_WEBHOOK_SECRET: 'secret', PADDLE_ENVIRONMENT: 'production' })
    expect(envError({ PADDLE_CLIENT_TOKEN: 'live_token', PADDLE_WEBHOOK_SECRET: 'secret' }).message).toMatch(
      /PADDLE_ENVIRONMENT: is sandbox, but PADDLE_CLIENT_TOKEN is a production token/,
    )
  })
})
