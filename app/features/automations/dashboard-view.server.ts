import { format } from 'date-fns'
import type { AppLoadContext } from 'react-router'
import { readForPage } from '#app/lib/read-for-page.server.ts'
import { pageCaller } from '#app/lib/guards.server.ts'
import { DEFAULT_PAGE_SIZE } from '#common/pagination.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import { readHistoryQuery } from './history-query.server.ts'
import { automationRow, runRow, stamp } from './run-view.server.ts'

const RECENT_RUNS = 5
const LEDGER_ENTRIES = 5

/**
 * What the member's dashboard shows (/dashboard, the spec's Automation History): their plan and
 * credits with the latest credit activity, their recent runs, the run history (paged, filtered)
 * and their automations (paged) with each one's latest run. A failed read of the lists leaves
 * them empty with a message; the rest still shows.
 */
export async function loadDashboard(context: AppLoadContext, user: SessionUser, params: URLSearchParams) {
  const query = readHistoryQuery(params)
  const { automations, runs, plans, credits } = context.services
  const workspace = pageCaller(user).workspace.id
  const [planList, ledger, lists] = await Promise.all([
    plans.list(),
    user.profileUnavailable ? Promise.resolve([]) : credits.recent(workspace, LEDGER_ENTRIES),
    readForPage(
      context,
      async () => {
        const [recent, history, mine, names, runners, waiting] = await Promise.all([
          runs.list({ workspaceId: workspace, page: 1, limit: RECENT_RUNS }),
          runs.list({
            workspaceId: workspace,
            page: query.page,
            limit: DEFAULT_PAGE_SIZE,
            status: query.status,
            automationId: query.automation,
          }),
          automations.list(workspace, { page: query.apage, limit: DEFAULT_PAGE_SIZE }),
          automations.names(workspace),
          context.services.devices.runnersFor(pageCaller(user)),
          runs.waitingIn(workspace),
        ])
        const [latest, disconnected] = await Promise.all([
          runs.latestOf(mine.items.map((automation) => automation.id)),
          context.services.devices.disconnectedRunners(
            workspace,
            mine.items.map((automation) => automation.deviceId),
          ),
        ])
        return { recent, history, mine, names, latest, disconnected, runners, waiting }
      },
      'Your automations could not be loaded. Please try again in a moment.',
    ),
  ])
  const plan = planList.find((candidate) => candidate.slug === (user.workspace?.planSlug ?? user.profile.subscriptionPlan))
  const read = lists.ok ? lists.value : null
  const pageCount = (total: number) => Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE))
  return {
    name: user.profile.fullName ?? user.name,
    planName: plan?.name ?? 'Free',
    credits: user.workspace?.credits ?? user.profile.credits,
    canChange: pageCaller(user).workspace.role !== 'viewer',
    // The zone schedules' next runs show in; null: the browser's (docs/decisions/036).
    memberTimeZone: user.profile.timeZone,
    profileIssue: Boolean(user.profileUnavailable),
    loadError: lists.ok ? null : lists.message,
    extensionUrl: context.services.site.links.extension,
    ledger: ledger.map((entry) => ({
      id: entry.id,
      delta: entry.delta,
      balanceAfter: entry.balanceAfter,
      reason: entry.reason,
      reference: entry.reference,
      date: entry.createdAt.toISOString(),
      dateLabel: format(entry.createdAt, 'MMM d, yyyy'),
    })),
    recent: read?.recent.items.map(runRow) ?? [],
    // Runs waiting for a person (docs/decisions/059): told here too, as the e-mail and the webhook tell.
    waiting:
      read?.waiting.flatMap((run) =>
        run.waiting
          ? [{ id: run.id, automationName: run.automationName, message: run.waiting.message, until: stamp(new Date(run.waiting.until)) }]
          : [],
      ) ?? [],
    history: {
      runs: read?.history.items.map(runRow) ?? [],
      total: read?.history.total ?? 0,
      page: query.page,
      pageCount: pageCount(read?.history.total ?? 0),
      filters: { status: query.status, automation: query.automation },
    },
    // The member's own connected local runners, for "Run on …".
    runners: read?.runners.filter((runner) => runner.connected).map(({ id, name }) => ({ id, name })) ?? [],
    automations: {
      rows:
        read?.mine.items.map((automation) =>
          automationRow(
            automation,
            read.latest[automation.id],
            automation.deviceId ? (read.disconnected.get(automation.deviceId) ?? null) : null,
          ),
        ) ?? [],
      total: read?.mine.total ?? 0,
      page: query.apage,
      pageCount: pageCount(read?.mine.total ?? 0),
    },
    automationNames: read?.names ?? [],
  }
}
