import { and, asc, desc, eq, gt, inArray, isNull, or, type SQL } from 'drizzle-orm'
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '#server/db/client.ts'
import {
  accounts,
  apiKeys,
  auditLog,
  automationDataRows,
  automationFiles,
  automationRuns,
  automations,
  automationTriggers,
  creditLedger,
  devices,
  passkeys,
  payments,
  profiles,
  sessions,
  subscriptions,
  users,
  vaultSecrets,
  webhookEndpoints,
  workspaceMembers,
  workspaces,
} from '#server/db/schema/index.ts'

// What a member's data export holds (docs/decisions/065): everything stored about them, read
// section by section. Never a password hash, a token or key hash, a sealed secret or kept browser
// session, nor what other people wrote about themselves: an entry of the audit log by someone
// else about this account shows who as "Aether", the member's own entries are theirs.

/** Runs read at once while data.json is written (a member may have many, each with its log). */
const RUN_PAGE = 200

/** The version of data.json's layout, so a reader can tell later changes. */
export const MEMBER_DATA_FORMAT = 'aether-member-data/1'

/** The workspaces a member is in, with their role: what the other sections are scoped by. */
async function membershipsOf(db: Db, userId: string) {
  return db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      kind: workspaces.kind,
      role: workspaceMembers.role,
      plan: workspaces.planSlug,
      credits: workspaces.credits,
      joinedAt: workspaceMembers.createdAt,
    })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(eq(workspaceMembers.userId, userId))
    .orderBy(asc(workspaceMembers.createdAt))
}

/** Whose data an export holds: the member, and the workspaces they are in now (read once, at the start). */
export interface MemberScope {
  userId: string
  memberships: Awaited<ReturnType<typeof membershipsOf>>
  /** Every workspace they are in, their personal one too. */
  workspaceIds: string[]
  /** Those they own: their settings, subscriptions and payments are the member's too. */
  ownedIds: string[]
}

export async function scopeOf(db: Db, userId: string): Promise<MemberScope> {
  const memberships = await membershipsOf(db, userId)
  return {
    userId,
    memberships,
    workspaceIds: memberships.map((workspace) => workspace.id),
    ownedIds: memberships.filter((workspace) => workspace.role === 'owner').map((workspace) => workspace.id),
  }
}

/**
 * Whose automations and runs are the member's: those of their personal workspace, and those they
 * made or started in a team they are still in (a team they left keeps its own).
 */
const automationsOf = ({ userId, workspaceIds }: MemberScope) =>
  and(inArray(automations.workspaceId, workspaceIds), or(eq(automations.workspaceId, userId), eq(automations.ownerId, userId)))
const runsOf = ({ userId, workspaceIds }: MemberScope) =>
  and(inArray(automationRuns.workspaceId, workspaceIds), or(eq(automationRuns.workspaceId, userId), eq(automationRuns.userId, userId)))

/**
 * A list in data.json: the columns it shows of one table (never a hash, token, key or sealed value:
 * a column is in only when it is named here), for the member or for the workspaces they own, oldest first.
 */
interface Section {
  table: PgTable
  /** The column the member's id, or their owned workspaces' ids, are looked for in. */
  by: AnyPgColumn
  columns: Record<string, AnyPgColumn>
  createdAt: AnyPgColumn
  /** Rows it leaves out besides. */
  only?: SQL
}

async function rowsOf(db: Db, section: Section, ids: string[]): Promise<unknown[]> {
  if (!ids.length) return []
  return db
    .select(section.columns)
    .from(section.table)
    .where(and(inArray(section.by, ids), section.only))
    .orderBy(asc(section.createdAt))
}

/** What signs the member in or acts for them, without what would let anyone do so. */
const CREDENTIAL_SECTIONS: Record<string, Section> = {
  sessions: {
    table: sessions,
    by: sessions.userId,
    createdAt: sessions.createdAt,
    columns: { createdAt: sessions.createdAt, expiresAt: sessions.expiresAt, ipAddress: sessions.ipAddress, userAgent: sessions.userAgent },
    // An admin viewing the app as the member (docs/decisions/064) is not a sign-in of theirs.
    only: isNull(sessions.impersonatedBy),
  },
  apiKeys: {
    table: apiKeys,
    by: apiKeys.userId,
    createdAt: apiKeys.createdAt,
    columns: {
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      workspaceId: apiKeys.workspaceId,
      scopes: apiKeys.scopes,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    },
  },
  devices: {
    table: devices,
    by: devices.userId,
    createdAt: devices.createdAt,
    columns: {
      id: devices.id,
      name: devices.name,
      kind: devices.kind,
      version: devices.version,
      workspaceId: devices.workspaceId,
      scopes: devices.scopes,
      createdAt: devices.createdAt,
      lastSeenAt: devices.lastSeenAt,
      revokedAt: devices.revokedAt,
      vaultValuesAllowedAt: devices.vaultValuesAllowedAt,
    },
  },
}

/** The settings of the workspaces the member owns that name outside services (never a secret's value), and their billing. */
const OWNED_WORKSPACE_SECTIONS: Record<string, Section> = {
  webhookEndpoints: {
    table: webhookEndpoints,
    by: webhookEndpoints.workspaceId,
    createdAt: webhookEndpoints.createdAt,
    columns: {
      id: webhookEndpoints.id,
      workspaceId: webhookEndpoints.workspaceId,
      url: webhookEndpoints.url,
      description: webhookEndpoints.description,
      events: webhookEndpoints.events,
      enabled: webhookEndpoints.enabled,
      createdAt: webhookEndpoints.createdAt,
    },
  },
  vaultSecrets: {
    table: vaultSecrets,
    by: vaultSecrets.workspaceId,
    createdAt: vaultSecrets.createdAt,
    columns: {
      workspaceId: vaultSecrets.workspaceId,
      name: vaultSecrets.name,
      kind: vaultSecrets.kind,
      origins: vaultSecrets.origins,
      useRole: vaultSecrets.useRole,
      createdAt: vaultSecrets.createdAt,
      updatedAt: vaultSecrets.updatedAt,
    },
  },
  subscriptions: {
    table: subscriptions,
    by: subscriptions.workspaceId,
    createdAt: subscriptions.createdAt,
    columns: {
      workspaceId: subscriptions.workspaceId,
      provider: subscriptions.provider,
      subscriptionId: subscriptions.providerSubscriptionId,
      plan: subscriptions.planSlug,
      status: subscriptions.status,
      nextBilledAt: subscriptions.nextBilledAt,
      cancelAt: subscriptions.cancelAt,
      canceledAt: subscriptions.canceledAt,
      cardBrand: subscriptions.cardBrand,
      cardLast4: subscriptions.cardLast4,
      createdAt: subscriptions.createdAt,
    },
  },
  payments: {
    table: payments,
    by: payments.workspaceId,
    createdAt: payments.createdAt,
    columns: {
      workspaceId: payments.workspaceId,
      transactionId: payments.providerTransactionId,
      plan: payments.planSlug,
      amount: payments.amount,
      currency: payments.currency,
      creditApplied: payments.creditApplied,
      creditToBalance: payments.creditToBalance,
      status: payments.status,
      createdAt: payments.createdAt,
    },
  },
  creditLedger: {
    table: creditLedger,
    by: creditLedger.workspaceId,
    createdAt: creditLedger.createdAt,
    columns: {
      workspaceId: creditLedger.workspaceId,
      delta: creditLedger.delta,
      balanceAfter: creditLedger.balanceAfter,
      reason: creditLedger.reason,
      reference: creditLedger.reference,
      createdAt: creditLedger.createdAt,
    },
  },
}

async function accountSection(db: Db, userId: string) {
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      emailVerified: users.emailVerified,
      name: users.name,
      twoFactorEnabled: users.twoFactorEnabled,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
      deletionRequestedAt: users.deletionRequestedAt,
      eraseAfter: users.eraseAfter,
    })
    .from(users)
    .where(eq(users.id, userId))
  const signInMethods = await db
    .select({ provider: accounts.providerId, since: accounts.createdAt })
    .from(accounts)
    .where(eq(accounts.userId, userId))
  const keys = await db
    .select({ name: passkeys.name, deviceType: passkeys.deviceType, backedUp: passkeys.backedUp, createdAt: passkeys.createdAt })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
  return {
    ...user,
    signInMethods: signInMethods.map((method) => ({
      method: method.provider === 'credential' ? 'password' : method.provider,
      since: method.since,
    })),
    passkeys: keys,
  }
}

async function profileSection(db: Db, userId: string) {
  const [profile] = await db
    .select({
      fullName: profiles.fullName,
      role: profiles.role,
      avatarUrl: profiles.avatarUrl,
      timeZone: profiles.timeZone,
      phone: profiles.phone,
      createdAt: profiles.createdAt,
      updatedAt: profiles.updatedAt,
    })
    .from(profiles)
    .where(eq(profiles.id, userId))
  return profile ?? null
}

/** The member's automations (steps, schedule, kept rows, the names of kept files) and what hangs on them. */
async function automationSection(db: Db, scope: MemberScope) {
  const rows = await db
    .select({
      id: automations.id,
      workspaceId: automations.workspaceId,
      name: automations.name,
      description: automations.description,
      steps: automations.steps,
      signInBlock: automations.signInBlock,
      schedule: automations.schedule,
      enabled: automations.enabled,
      selfRepair: automations.selfRepair,
      keepSession: automations.keepSession,
      trace: automations.trace,
      askPersonOnCaptcha: automations.askPersonOnCaptcha,
      runTimeLimitSeconds: automations.runTimeLimitSeconds,
      runStepLimit: automations.runStepLimit,
      version: automations.version,
      createdAt: automations.createdAt,
      updatedAt: automations.updatedAt,
    })
    .from(automations)
    .where(automationsOf(scope))
    .orderBy(asc(automations.createdAt))
  const ids = rows.map((row) => row.id)
  const [dataRows, files, triggers] = ids.length
    ? await Promise.all([
        db.select().from(automationDataRows).where(inArray(automationDataRows.automationId, ids)),
        db
          .select({ automationId: automationFiles.automationId, name: automationFiles.name, size: automationFiles.size })
          .from(automationFiles)
          .where(inArray(automationFiles.automationId, ids)),
        db
          .select({
            automationId: automationTriggers.automationId,
            hint: automationTriggers.hint,
            createdAt: automationTriggers.createdAt,
            lastUsedAt: automationTriggers.lastUsedAt,
          })
          .from(automationTriggers)
          .where(inArray(automationTriggers.automationId, ids)),
      ])
    : [[], [], []]
  return rows.map((row) => {
    const kept = dataRows.find((data) => data.automationId === row.id)
    const trigger = triggers.find((candidate) => candidate.automationId === row.id)
    return {
      ...row,
      dataRows: kept ? { name: kept.name, columns: kept.columns, rows: kept.rows, updatedAt: kept.updatedAt } : null,
      // The files themselves are in the zip, under automations/<id>/files/.
      files: files.filter((file) => file.automationId === row.id).map(({ name, size }) => ({ name, size })),
      triggerUrl: trigger ? { endsWith: trigger.hint, createdAt: trigger.createdAt, lastUsedAt: trigger.lastUsedAt } : null,
    }
  })
}

/**
 * What the member did, and what was done to their account (by someone named only as "Aether"). What
 * they did as an admin to another member's account keeps its action and target, never that
 * member's data (their address in the summary, their fields before and after).
 */
async function auditSection(db: Db, userId: string) {
  const rows = await db
    .select()
    .from(auditLog)
    .where(or(eq(auditLog.actorId, userId), and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, userId))))
    .orderBy(asc(auditLog.createdAt))
  return rows.map((row) => {
    const aboutAnother = row.targetType === 'user' && row.targetId !== userId
    const told = row.actorId === userId && !aboutAnother
    return {
      at: row.createdAt,
      by: row.actorId === userId ? 'you' : 'Aether',
      action: row.action,
      workspaceId: row.workspaceId,
      targetType: row.targetType,
      targetId: row.targetId,
      summary: told ? row.summary : null,
      before: told ? row.before : null,
      after: told ? row.after : null,
    }
  })
}

/** The member's runs, oldest first, a page at a time: each with its log, its data and its timeline. */
async function* runPages(db: Db, scope: MemberScope) {
  const { userId } = scope
  let after: { createdAt: Date; id: string } | null = null
  for (;;) {
    const cursor: SQL | undefined = after
      ? or(
          gt(automationRuns.createdAt, after.createdAt),
          and(eq(automationRuns.createdAt, after.createdAt), gt(automationRuns.id, after.id)),
        )
      : undefined
    const page = await db
      .select({
        id: automationRuns.id,
        automationId: automationRuns.automationId,
        automationName: automationRuns.automationName,
        workspaceId: automationRuns.workspaceId,
        startedBy: automationRuns.userId,
        status: automationRuns.status,
        trigger: automationRuns.trigger,
        runner: automationRuns.runner,
        steps: automationRuns.steps,
        inputs: automationRuns.inputs,
        dataRows: automationRuns.dataRows,
        rowOutcomes: automationRuns.rowOutcomes,
        log: automationRuns.log,
        extracted: automationRuns.extracted,
        timeline: automationRuns.timeline,
        screenshots: automationRuns.screenshots,
        files: automationRuns.files,
        repairs: automationRuns.repairs,
        error: automationRuns.error,
        actionsPerformed: automationRuns.actionsPerformed,
        creditsCharged: automationRuns.creditsCharged,
        refundedAt: automationRuns.refundedAt,
        filesRemovedAt: automationRuns.filesRemovedAt,
        createdAt: automationRuns.createdAt,
        startedAt: automationRuns.startedAt,
        finishedAt: automationRuns.finishedAt,
      })
      .from(automationRuns)
      .where(and(runsOf(scope), cursor))
      .orderBy(asc(automationRuns.createdAt), asc(automationRuns.id))
      .limit(RUN_PAGE)
    // Who started a run in a team is theirs to know only when it was them.
    if (page.length) yield page.map(({ startedBy, ...run }) => ({ ...run, startedByYou: startedBy === userId }))
    const last = page.at(-1)
    if (page.length < RUN_PAGE || !last) return
    after = { createdAt: last.createdAt, id: last.id }
  }
}

/**
 * data.json, written as it is read: the small sections first, then the runs a page at a time, so
 * a member with years of runs does not have them all in memory at once.
 */
export async function* memberDataJson(db: Db, scope: MemberScope, exportedAt: Date): AsyncGenerator<string> {
  const { userId, memberships, ownedIds } = scope
  const field = (name: string, value: unknown) => `,\n${JSON.stringify(name)}: ${JSON.stringify(value, null, 1)}`
  yield `{${JSON.stringify('format')}: ${JSON.stringify(MEMBER_DATA_FORMAT)}`
  yield field('exportedAt', exportedAt)
  yield field('profile', await profileSection(db, userId))
  yield field('account', await accountSection(db, userId))
  for (const [name, section] of Object.entries(CREDENTIAL_SECTIONS)) yield field(name, await rowsOf(db, section, [userId]))
  // A team's plan and credits are its owners' business; a member sees their role.
  yield field(
    'workspaces',
    memberships.map(({ credits, plan, ...workspace }) => (workspace.role === 'owner' ? { ...workspace, plan, credits } : workspace)),
  )
  yield field('automations', await automationSection(db, scope))
  for (const [name, section] of Object.entries(OWNED_WORKSPACE_SECTIONS)) yield field(name, await rowsOf(db, section, ownedIds))
  yield field('auditEntries', await auditSection(db, userId))
  yield `,\n${JSON.stringify('runs')}: [`
  let first = true
  for await (const page of runPages(db, scope)) {
    for (const run of page) {
      yield `${first ? '\n' : ',\n'}${JSON.stringify(run)}`
      first = false
    }
  }
  yield '\n]\n}\n'
}

/** The runs whose files still are on disk, the newest first, with their size and the member's names for their kept files. */
export async function runsWithFiles(db: Db, scope: MemberScope) {
  return db
    .select({ id: automationRuns.id, files: automationRuns.files, storedBytes: automationRuns.storedBytes })
    .from(automationRuns)
    .where(and(runsOf(scope), gt(automationRuns.storedBytes, 0), isNull(automationRuns.filesRemovedAt)))
    .orderBy(desc(automationRuns.createdAt))
}

/** The automations' kept files (their bytes are read one at a time while the zip is written). */
export async function automationFilesOf(db: Db, scope: MemberScope) {
  return db
    .select({ automationId: automationFiles.automationId, name: automationFiles.name })
    .from(automationFiles)
    .innerJoin(automations, eq(automations.id, automationFiles.automationId))
    .where(automationsOf(scope))
}

export async function automationFileBytes(db: Db, automationId: string, name: string): Promise<Buffer | null> {
  const [row] = await db
    .select({ content: automationFiles.content })
    .from(automationFiles)
    .where(and(eq(automationFiles.automationId, automationId), eq(automationFiles.name, name)))
  return row?.content ?? null
}
