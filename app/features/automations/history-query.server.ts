import type { RunStatus } from '#common/automations.ts'
import { RUN_STATUS_OPTIONS } from './run-status.tsx'
import { isUuid } from '#common/ids.ts'

const MAX_PAGE = 100_000

function pageOf(value: string | null): number {
  const page = Number(value ?? '1')
  return Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1
}

const statusOf = (value: string | null): RunStatus | undefined => RUN_STATUS_OPTIONS.find((status) => status === value)

/**
 * The dashboard's lists from its address: the history's page and filters, and the automations'
 * page (`apage`). A value that makes no sense is ignored rather than an error: these are links.
 */
export function readHistoryQuery(params: URLSearchParams) {
  const automation = params.get('automation')
  return {
    page: pageOf(params.get('page')),
    apage: pageOf(params.get('apage')),
    status: statusOf(params.get('status')),
    automation: isUuid(automation) ? automation : undefined,
  }
}
