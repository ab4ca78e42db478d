import { automationFileSource } from '#server/features/automations/automation-files.ts'
import { WEBHOOK_TIMEOUT_MS } from '#common/webhooks.ts'
import { createAuth } from './better-auth.ts'
import type { Database } from './db/client.ts'
import type { Env } from './env.ts'
import type { Logger } from './logger.ts'
import { createMcpGateway } from './mcp/mcp-gateway.ts'
import { createAuthService } from './features/auth/auth.service.ts'
import { createSessionService } from './features/auth/session.service.ts'
import { createTrustedDevices } from './features/auth/trusted-devices.ts'
import { createSignedIn } from './features/auth/signed-in.ts'
import { createTwoFactorService } from './features/auth/two-factor.service.ts'
import { createPasskeyService } from './features/auth/passkey.service.ts'
import { createUrlSigner } from './url-signer.ts'
import { createAccountService } from './features/auth/account.service.ts'
import { createAccountMail } from './features/auth/account-mail.ts'
import { verifyAccountPassword } from './features/auth/account-password.ts'
import { createAccountDeletionService } from './features/account-data/account-deletion.service.ts'
import { createDeletionMail } from './features/account-data/account-data-mail.ts'
import { createDataExportService } from './features/account-data/data-export.service.ts'
import { createPlanService } from './features/plans/plan.service.ts'
import { createProfileService } from './features/profiles/profile.service.ts'
import { createWorkspaceService } from './features/workspaces/workspace.service.ts'
import { createInvitationService } from './features/workspaces/invitation.service.ts'
import { createRateLimitService } from './features/rate-limit/rate-limit.service.ts'
import { createSettingsService } from './features/settings/settings.service.ts'
import { createUserService } from './features/users/user.service.ts'
import { createInquiryService } from './features/inquiries/inquiry.service.ts'
import { createMailer } from './features/mail/mailer.ts'
import { createBlogService } from './features/blog/blog.service.ts'
import { createPublicContentService } from './features/public-content/public-content.service.ts'
import { createCreditService } from './features/credits/credit.service.ts'
import { siteConfigFromEnv, type SiteEnv } from './site-config.ts'
import { createBilling, type BillingEnv } from './features/billing/create-billing.ts'
import { createDiagnosticsService } from './features/diagnostics/diagnostics.service.ts'
import { createBlogDrafter } from './features/ai/blog-drafter.ts'
import { createAuditService } from './features/audit/audit.service.ts'
import { createViewAsService } from './features/auth/view-as.service.ts'
import { createDailyRollup } from './features/overview/daily-rollup.ts'
import { createOverviewService } from './features/overview/overview.service.ts'
import { createEventBus } from './features/events/event-bus.ts'
import { createLiveView } from './features/runs/live-view.ts'
import { createPersonHelp } from './features/runs/person-help.ts'
import { createAutomationService } from './features/automations/automation.service.ts'
import { createRunFiles } from './features/runs/run-files.ts'
import { createRunQueue } from './features/runs/run-queue.ts'
import { createRunService } from './features/runs/run.service.ts'
import { createRepairApplier } from './features/runs/apply-repair.ts'
import { createUploadService } from './features/uploads/upload.service.ts'
import { createUserAdminService } from './features/users/user-admin.service.ts'
import { createUserSuspensionService } from './features/users/user-suspension.service.ts'
import { createUserTimelineService } from './features/users/user-timeline.service.ts'
import { createApiKeyService } from './features/api-keys/api-key.service.ts'
import { createDeviceService } from './features/devices/device.service.ts'
import { createPairingService } from './features/devices/pairing.service.ts'
import { createSharedBrowser } from './browser/shared-browser.ts'
import { createStructuredAnswers } from './features/ai/structured-answers.ts'
import { createModelCalls } from './features/credits/model-calls.ts'
import { createPlanningService, type ExplorationLimits } from './features/planning/planning.service.ts'
import { createRepairer } from './features/planning/repairer.ts'
import { createSuggestionService } from './features/suggestions/suggestion.service.ts'
import { createTemplateService } from './features/templates/template.service.ts'
import { createTriggerService } from './features/triggers/trigger.service.ts'
import { createArtifactLinks } from './artifact-links.ts'
import { createWebhookOutbox } from './features/webhooks/webhook-outbox.ts'
import { createWebhookService } from './features/webhooks/webhook.service.ts'
import { createSecretBox } from './features/webhooks/webhook-signing.ts'
import { createVaultService, vaultKeyring } from './features/vault/vault.service.ts'
import { createDeviceVault } from './features/vault/device-vault.ts'

export type ServicesEnv = Pick<
  Env,
  'PUBLIC_URL' | 'isProduction' | 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'googleEnabled' | 'MAIL_FROM'
> &
  Partial<Pick<Env, 'SMTP_URL' | 'OWNER_EMAIL'>> &
  Partial<SiteEnv> &
  Partial<BillingEnv> &
  Partial<Pick<Env, 'AI_BASE_URL' | 'AI_API_KEY' | 'AI_MODEL' | 'AI_TIMEOUT_MS' | 'DATA_DIR'>> &
  Partial<Pick<Env, 'CHROMIUM_PATH' | 'RUN_ALLOW_PRIVATE_TARGETS' | 'RUN_STEP_TIMEOUT_MS' | 'RUN_TIME_LIMIT_MS' | 'RUN_MAX_ACTIONS'>> &
  Partial<Pick<Env, 'VAULT_KEY' | 'VAULT_KEY_PREVIOUS'>>

/** How long a cloud worker's claim on a run holds without a heartbeat. */
const RUN_LEASE_MS = 30_000

/** Builds every service once; pages (through router context) and the API both use these. */
export function createServices(options: {
  database: Pick<Database, 'db' | 'kind' | 'location' | 'notifications' | 'contentChanges' | 'sessionDataChanges'>
  env: ServicesEnv
  authSecret: string
  logger: Logger
  /** How the payment sandbox reaches our webhook endpoint (tests pass the in-process app). */
  deliverWebhook?: (request: Request) => Promise<Response>
  /** The time schedules count from (tests fake it; the scheduler takes the same clock). */
  clock?: () => Date
  /** How many inspections and plans run and wait at once, and what one inspection waits for (tests shorten them). */
  explorations?: Partial<ExplorationLimits>
}) {
  const { database, env, authSecret, logger } = options
  const db = database.db
  const audit = createAuditService(db)
  // What every cloud run may take at most (the worker's config in main.ts reads the same variables).
  const runLimits = { timeLimitSeconds: Math.floor((env.RUN_TIME_LIMIT_MS ?? 120_000) / 1000), maxActions: env.RUN_MAX_ACTIONS ?? 1000 }
  const settings = createSettingsService(db, audit)
  const urlSigner = createUrlSigner(authSecret)
  const artifactLinks = createArtifactLinks({ signer: urlSigner, publicUrl: env.PUBLIC_URL })
  // Events become webhook deliveries inside the transactions that cause them (docs/decisions/026).
  const webhookOutbox = createWebhookOutbox({ links: artifactLinks, publicUrl: env.PUBLIC_URL })
  const credits = createCreditService(db, { webhooks: webhookOutbox })
  const plans = createPlanService(db, audit)
  const workspaces = createWorkspaceService({ db, audit, plans })
  const dailyRollup = createDailyRollup({ db, logger })
  const profiles = createProfileService({ db, settings, credits, workspaces })
  const rateLimits = createRateLimitService(db, { sharedDatabase: database.kind === 'postgres' })
  const users = createUserService(db)
  const mailer = createMailer({ db, logger, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM })
  const accountMail = createAccountMail(mailer, env.PUBLIC_URL)
  const invitations = createInvitationService({ db, workspaces, mailer, publicUrl: env.PUBLIC_URL })
  const betterAuth = createAuth({
    db,
    env,
    secret: authSecret,
    logger,
    hooks: {
      socialSignUpOpen: async () => !(await settings.get()).maintenanceMode,
      onUserCreated: async (user) => {
        await profiles.createFor(user.id, user.name || null)
      },
      accountSuspended: users.isSuspended,
      // Google's callback signs in without our signed-in step (docs/decisions/065).
      signedInWithGoogle: async (userId) => {
        await accountDeletion.cancelOnSignIn(userId)
      },
      sendVerificationEmail: accountMail.verifyEmail,
      sendResetPassword: accountMail.resetPassword,
    },
  })
  const apiKeys = createApiKeyService(db, audit)
  const devices = createDeviceService(db, audit)
  const sessions = createSessionService({
    auth: betterAuth,
    secret: authSecret,
    db,
    sessionDataChanges: database.sessionDataChanges,
    profiles,
    workspaces,
    apiKeys,
    devices,
    logger,
  })
  const trustedDevices = createTrustedDevices({ secret: authSecret, secure: env.isProduction })
  // Signing in cancels a deletion that waits (docs/decisions/065); the deletion service is made below.
  const signedIn = createSignedIn({ sessions, trustedDevices, cancelDeletion: (userId) => accountDeletion.cancelOnSignIn(userId) })
  const auth = createAuthService({ auth: betterAuth, db, profiles, rateLimits, signedIn, apiKeys, devices, trustedDevices, settings })
  const twoFactor = createTwoFactorService({ auth: betterAuth, db, rateLimits, signedIn })
  const passkeys = createPasskeyService({ auth: betterAuth, db, rateLimits, signedIn })
  const account = createAccountService({ db, auth: betterAuth, rateLimits, mail: accountMail, mailer })
  const site = siteConfigFromEnv(env)
  const events = createEventBus(database.notifications)
  const runFiles = createRunFiles({ dataDir: env.DATA_DIR ?? './data' })
  const vault = createVaultService({
    db,
    audit,
    plans,
    keyring: vaultKeyring({ vaultKey: env.VAULT_KEY, previousVaultKey: env.VAULT_KEY_PREVIOUS, authSecret }),
    rateLimits,
  })
  const deviceVault = createDeviceVault({ db, vault, audit })
  const runs = createRunService({
    db,
    credits,
    events,
    activity: audit,
    webhooks: webhookOutbox,
    secretUse: vault.checkUse,
    deviceVault: deviceVault.whyNot,
  })
  const outgoingWebhooks = createWebhookService({
    db,
    plans,
    mailer,
    activity: audit,
    box: createSecretBox(authSecret),
    // Webhooks reach what cloud runs may reach, through the same target guard (docs/decisions/012).
    sender: { privateTargets: env.RUN_ALLOW_PRIVATE_TARGETS ?? 'none', timeoutMs: WEBHOOK_TIMEOUT_MS },
    publicUrl: env.PUBLIC_URL,
    logger,
  })
  const automations = createAutomationService(db, audit, {
    webhooks: webhookOutbox,
    secretRules: vault.rulesByName,
    dropSession: vault.dropSession,
    runLimits,
    plans,
    clock: options.clock,
  })
  const inquiries = createInquiryService({
    audit,
    events,
    db,
    mailer,
    rateLimits,
    ownerEmail: env.OWNER_EMAIL ?? site.contactEmail,
    publicUrl: env.PUBLIC_URL,
  })
  const { billing, webhooks } = createBilling({
    db,
    activity: audit,
    env,
    plans,
    credits,
    logger,
    checkoutSecret: authSecret,
    deliverWebhook: options.deliverWebhook,
  })
  // Members' own data (docs/decisions/065): exports built and accounts erased by the worker process.
  const dataExports = createDataExportService({
    db,
    runFiles,
    mailer,
    signer: urlSigner,
    publicUrl: env.PUBLIC_URL,
    dataDir: env.DATA_DIR ?? './data',
    logger,
    clock: options.clock,
  })
  const accountDeletion = createAccountDeletionService({
    db,
    audit,
    runs,
    mail: createDeletionMail(mailer, env.PUBLIC_URL),
    signer: urlSigner,
    rateLimits,
    passwordMatches: (userId, password) => verifyAccountPassword(db, userId, password),
    checkCode: twoFactor.checkCode,
    cancelSubscriptions: billing.cancelAllNow,
    runFiles,
    exports: dataExports,
    logger,
    clock: options.clock,
  })
  const features = { googleSignIn: env.googleEnabled }
  // One Chromium per process, for cloud runs, inspections and planning alike (launched when first needed).
  const browsers = createSharedBrowser({ executablePath: env.CHROMIUM_PATH ?? '/usr/bin/chromium', logger })
  const ai = createStructuredAnswers({ baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY, model: env.AI_MODEL })
  const modelCalls = createModelCalls({ db, credits, plans, rateLimits })
  const planning = createPlanningService({
    page: { browsers, privateTargets: env.RUN_ALLOW_PRIVATE_TARGETS ?? 'none', stepTimeoutMs: env.RUN_STEP_TIMEOUT_MS ?? 15_000 },
    ai,
    modelCalls,
    plans,
    rateLimits,
    limits: options.explorations,
  })
  const templates = createTemplateService({ db, audit, plans, automations })
  const mcp = createMcpGateway({
    db,
    services: { automations, runs, planning, templates, events, audit, rateLimits, settings },
    publicUrl: env.PUBLIC_URL,
    logger,
  })

  return {
    logger,
    auth,
    twoFactor,
    passkeys,
    sessions,
    apiKeys,
    devices,
    pairings: createPairingService({ db, plans, workspaces, rateLimits, activity: audit, publicUrl: env.PUBLIC_URL }),
    account,
    betterAuth,
    settings,
    credits,
    billing,
    webhooks,
    profiles,
    workspaces,
    invitations,
    rateLimits,
    plans,
    users,
    inquiries,
    mailer,
    site,
    features,
    blog: createBlogService(db, audit),
    publicContent: createPublicContentService(db, database.contentChanges),
    diagnostics: createDiagnosticsService(database),
    audit,
    dailyRollup,
    overview: createOverviewService({ db, rollup: dailyRollup, clock: options.clock }),
    events,
    uploads: createUploadService({ dataDir: env.DATA_DIR ?? './data' }),
    automations,
    vault,
    deviceVault,
    repairs: createRepairApplier({ db, automations }),
    suggestions: createSuggestionService({ db, automations, plans }),
    templates,
    runs,
    runLimits,
    triggers: createTriggerService({ db, runs, plans, rateLimits, activity: audit, publicUrl: env.PUBLIC_URL }),
    runQueue: createRunQueue({ db, runs, events, leaseMs: RUN_LEASE_MS }),
    runFiles,
    liveView: createLiveView({ events, files: runFiles, logger }),
    personHelp: createPersonHelp({ db, events, webhooks: webhookOutbox, mailer, publicUrl: env.PUBLIC_URL, logger }),
    automationFiles: automationFileSource(db),
    urlSigner,
    artifactLinks,
    outgoingWebhooks,
    userAdmin: createUserAdminService({
      db,
      auth: betterAuth,
      users,
      credits,
      audit,
      mailer,
      cancelSubscriptions: billing.cancelAllNow,
      runFiles,
      exports: dataExports,
    }),
    userSuspensions: createUserSuspensionService({ db, audit, runs }),
    dataExports,
    accountDeletion,
    viewAs: createViewAsService({ db, audit, secret: authSecret, secure: env.isProduction }),
    userTimelines: createUserTimelineService(db),
    browsers,
    ai,
    modelCalls,
    planning,
    mcp,
    repairer: createRepairer({ ai, modelCalls, plans }),
    aiDrafter: createBlogDrafter({ baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY, model: env.AI_MODEL, timeoutMs: env.AI_TIMEOUT_MS }),
  }
}

export type Services = ReturnType<typeof createServices>
