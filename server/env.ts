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
    AUTH_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
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
    EXTENSION_URL: z.url({ protocol: /^https?$/ }).default('https://chromewebstore.google.com/search/Aether'),
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
  })
  .transform((env) => ({
    ...env,
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    isProduction: env.NODE_ENV === 'production',
    googleEnabled: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
  }))
  .superRefine((env, ctx) => {
    // Several processes on one PostgreSQL must share the secret; with the embedded database there
    // is one process, and a random secret kept in DATA_DIR (auth-secret.ts) is as strong.
    if (env.isProduction && env.DATABASE_URL && !env.AUTH_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['AUTH_SECRET'], message: 'is required in production with DATABASE_URL' })
    }
  })

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
