import { availableParallelism } from 'node:os'
import { z } from 'zod'

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes')

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined))

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().trim().min(1).default('0.0.0.0'),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value ? value : undefined))
      .pipe(
        z
          .string()
          .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
          .optional(),
      ),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    // Server processes on one port (server/cluster.ts). Unset: one per CPU on PostgreSQL, one on PGlite.
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    AUTH_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    // The credential vault's key (docs/decisions/025). Unset: derived from the auth secret.
    // VAULT_KEY_PREVIOUS: the key before a rotation, read until `npm run vault:rotate` re-wrapped everything.
    VAULT_KEY: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    VAULT_KEY_PREVIOUS: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    TRUST_PROXY: booleanString.default(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SEED_DEMO: booleanString.default(true),
    SEED_ADMIN_EMAIL: z.email().default('admin@aether.test'),
    SEED_ADMIN_PASSWORD: optionalString.pipe(z.string().min(8).max(128).optional()),
    SEED_MEMBER_EMAIL: z.email().default('member@aether.test'),
    SEED_MEMBER_PASSWORD: optionalString.pipe(z.string().min(8).max(128).optional()),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    CONTACT_EMAIL: z.email().default('hello@aether.test'),
    // The extension's store listing; without one, 'Get the browser extension' leads to /extension (a download of the built extension).
    EXTENSION_URL: z.url({ protocol: /^https?$/ }).optional(),
    // Site facts (common/site.ts has the defaults).
    SUPPORT_EMAIL: z.email().optional(),
    FOUNDER_NAME: optionalString.pipe(z.string().max(100).optional()),
    FREELANCER_PROFILE_URL: z.url({ protocol: /^https?$/ }).optional(),
    SCRAPER_STORE_URL: z.url({ protocol: /^https?$/ }).optional(),
    SOCIAL_TWITTER_URL: z.url({ protocol: /^https?$/ }).optional(),
    SOCIAL_LINKEDIN_URL: z.url({ protocol: /^https?$/ }).optional(),
    SOCIAL_GITHUB_URL: z.url({ protocol: /^https?$/ }).optional(),
    POLICY_LAST_UPDATED: z.iso.date({ error: 'must be a date like 2026-01-31' }).optional(),
    ANALYTICS_ID: optionalString.pipe(
      z
        .string()
        .regex(/^G-[A-Z0-9]{4,20}$/, 'must look like G-XXXXXXXXXX')
        .optional(),
    ),
    // Mail: without SMTP_URL, mail is logged and kept in the mail_outbox table only.
    SMTP_URL: optionalString.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
        .optional(),
    ),
    MAIL_FROM: z.string().trim().min(3).default('Aether <no-reply@aether.test>'),
    OWNER_EMAIL: z.email().optional(),
    // Payments (Paddle Billing). Without a client token there is no checkout: the spec's
    // 'Checkout Not Available'. BILLING_SANDBOX runs purchases locally (docs/decisions/010-payments.md).
    PADDLE_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
    PADDLE_CLIENT_TOKEN: optionalString,
    PADDLE_API_KEY: optionalString,
    PADDLE_WEBHOOK_SECRET: optionalString,
    PADDLE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
    BILLING_SANDBOX: booleanString.default(false),
    // AI drafting: any OpenAI-compatible chat-completions endpoint. Unset: the offline drafter.
    AI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    AI_API_KEY: optionalString,
    AI_MODEL: optionalString,
    AI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
    // Cloud runs (docs/decisions/012-automations-credits-and-runs.md). RUN_WORKER=false: this
    // process serves HTTP only (no worker, no scheduler); another process runs the queue.
    RUN_WORKER: booleanString.default(true),
    RUN_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
    RUN_TIME_LIMIT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
    RUN_STEP_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(15_000),
    RUN_MAX_ACTIONS: z.coerce.number().int().min(1).max(100_000).default(1000),
    // Which non-public addresses cloud runs may reach: none, loopback (tests, a local demo) or all
    // (a private deployment). Cloud metadata addresses are refused whatever this says.
    RUN_ALLOW_PRIVATE_TARGETS: z.enum(['none', 'loopback', 'all'], { error: 'must be none, loopback or all' }).default('none'),
    CHROMIUM_PATH: z.string().trim().min(1).default('/usr/bin/chromium'),
  })
  .transform((env) => ({
    ...env,
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    isProduction: env.NODE_ENV === 'production',
    processes: env.WEB_CONCURRENCY ?? (env.DATABASE_URL ? availableParallelism() : 1),
    googleEnabled: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
  }))
  .superRefine((env, ctx) => {
    // Several processes on one PostgreSQL must share the secret; with the embedded database there
    // is one process, and a random secret kept in DATA_DIR (auth-secret.ts) is as strong.
    if (env.isProduction && env.DATABASE_URL && !env.AUTH_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['AUTH_SECRET'], message: 'is required in production with DATABASE_URL' })
    }
    // The same for the vault's key; kept apart from the database, a copy of the database alone opens no secret.
    if (env.isProduction && env.DATABASE_URL && !env.VAULT_KEY) {
      ctx.addIssue({ code: 'custom', path: ['VAULT_KEY'], message: 'is required in production with DATABASE_URL' })
    }
    if (env.processes > 1 && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEB_CONCURRENCY'],
        message: 'above 1 needs DATABASE_URL: the embedded database (PGlite) belongs to one process',
      })
    }
    if (env.VAULT_KEY_PREVIOUS && !env.VAULT_KEY) {
      ctx.addIssue({ code: 'custom', path: ['VAULT_KEY'], message: 'is required with VAULT_KEY_PREVIOUS (the new key)' })
    }
    // The sandbox completes purchases without paying. A production build may use it only on a
    // loopback address (tests, benchmarks, a local demo), never where customers can reach it.
    if (env.BILLING_SANDBOX && env.isProduction && !(isLoopbackUrl(env.PUBLIC_URL) && isLoopbackHost(env.HOST))) {
      ctx.addIssue({
        code: 'custom',
        path: ['BILLING_SANDBOX'],
        message: 'cannot be on in production unless HOST and PUBLIC_URL are loopback addresses (e.g. HOST=127.0.0.1)',
      })
    }
    if (env.AI_BASE_URL && !env.AI_MODEL) {
      ctx.addIssue({ code: 'custom', path: ['AI_MODEL'], message: 'is required with AI_BASE_URL' })
    }
    // Paddle's client tokens say which environment they belong to.
    const tokenEnvironment = env.PADDLE_CLIENT_TOKEN?.startsWith('live_')
      ? 'production'
      : env.PADDLE_CLIENT_TOKEN?.startsWith('test_')
        ? 'sandbox'
        : null
    if (tokenEnvironment && tokenEnvironment !== env.PADDLE_ENVIRONMENT) {
      ctx.addIssue({
        code: 'custom',
        path: ['PADDLE_ENVIRONMENT'],
        message: `is ${env.PADDLE_ENVIRONMENT}, but PADDLE_CLIENT_TOKEN is a ${tokenEnvironment} token`,
      })
    }
    if (env.BILLING_SANDBOX && env.PADDLE_CLIENT_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['BILLING_SANDBOX'], message: 'cannot be on together with PADDLE_CLIENT_TOKEN: choose one' })
    }
    if (env.PADDLE_CLIENT_TOKEN && !env.PADDLE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['PADDLE_WEBHOOK_SECRET'],
        message: 'is required with PADDLE_CLIENT_TOKEN: plans change only through verified webhooks',
      })
    }
  })

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

function isLoopbackUrl(url: string): boolean {
  return isLoopbackHost(new URL(url).hostname)
}

export type Env = z.infer<typeof envSchema>

export class EnvError extends Error {}

/** The only place that reads process.env: everything else receives the parsed Env. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`)
    throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  return result.data
}
