import type { AutomationStep } from '#common/automation-steps.ts'

/**
 * 'For each row, …', 'For every line of the spreadsheet: …', 'For each entry in the CSV …': a task
 * said for each row of the run's data (docs/decisions/046). Both planners plan what follows; the
 * draft's steps are then put inside a "for each row" block, where `{{row.column}}` names a cell.
 */
const LEAD =
  /^\s*for\s+(?:each|every)\s+(?:row|line|entry|record)\b(?:\s+(?:of|in|from)\s+(?:the\s+|my\s+|this\s+)?(?:data|spreadsheet|sheet|csv(?:\s+file)?|table|file|list|rows))?\s*[,:]?\s*/i

/** The task without its 'for each row' lead, and whether it had one. */
export function rowsLead(description: string): { task: string; eachRow: boolean } {
  const lead = LEAD.exec(description)
  if (!lead || lead[0].length >= description.trim().length) return { task: description, eachRow: false }
  return { task: description.slice(lead[0].length), eachRow: true }
}

/** The block a row-by-row task's steps go in. */
export const ROWS_BLOCK: { open: AutomationStep; close: AutomationStep } = {
  open: { type: 'forEachRow', onRowError: 'continue' },
  close: { type: 'end' },
}
