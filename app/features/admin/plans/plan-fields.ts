import type { PlanRow } from './plan-row.ts'

type NumberField = {
  [K in keyof PlanRow]: PlanRow[K] extends number | null ? K : never
}[keyof PlanRow]
type SwitchField = { [K in keyof PlanRow]: PlanRow[K] extends boolean ? K : never }[keyof PlanRow]

export interface LimitField {
  field: Exclude<NumberField, 'price' | 'creditsPerMonth' | 'sortOrder' | 'members'>
  label: string
  /** What a blank field means (unlimited, no minimum…); absent: the field is required. */
  blank?: string
}

export interface AllowanceGroup {
  title: string
  limits: LimitField[]
  switches: { field: Exclude<SwitchField, 'highlighted'>; label: string }[]
}

/** What a plan includes (docs/decisions/020), grouped as the plan's form shows it. */
export const ALLOWANCE_GROUPS: AllowanceGroup[] = [
  {
    title: 'Runs',
    limits: [
      { field: 'monthlyRunLimit', label: 'Runs / month', blank: 'unlimited' },
      { field: 'dataRowLimit', label: 'Data rows / run', blank: 'no limit' },
      { field: 'scheduleMinMinutes', label: 'Shortest schedule (min)', blank: 'no minimum' },
      { field: 'runFilesDays', label: 'Run files kept (days)', blank: 'kept forever' },
      { field: 'personWaitMinutes', label: 'Wait for a person (min)', blank: 'a day' },
    ],
    switches: [],
  },
  {
    title: 'Automations and actions',
    limits: [{ field: 'actionLimit', label: 'Actions / automation', blank: 'unlimited' }],
    switches: [
      { field: 'scripts', label: 'JavaScript steps' },
      { field: 'advancedTemplates', label: 'Advanced templates' },
    ],
  },
  {
    title: 'AI',
    limits: [{ field: 'monthlyModelCalls', label: 'Model calls / month', blank: 'unlimited' }],
    switches: [
      { field: 'aiPlanning', label: 'AI planning' },
      { field: 'modelRepair', label: 'Self-repair by model' },
      { field: 'suggestions', label: 'Suggestions' },
    ],
  },
  {
    title: 'Devices and seats',
    limits: [
      { field: 'devices', label: 'Devices', blank: 'unlimited' },
      { field: 'seats', label: 'Seats / workspace' },
    ],
    switches: [{ field: 'teams', label: 'Team workspaces' }],
  },
  {
    title: 'Integrations',
    limits: [
      { field: 'webhooks', label: 'Webhook endpoints' },
      { field: 'vaultSecrets', label: 'Vault secrets', blank: 'unlimited' },
    ],
    switches: [{ field: 'triggerUrls', label: 'Trigger URLs' }],
  },
  {
    title: 'Cloud concurrency',
    limits: [{ field: 'cloudConcurrency', label: 'Cloud runs at once' }],
    switches: [],
  },
]

/** A limit as a card shows it: its number, or what blank means. */
export const limitWords = (value: number | null, limit: LimitField) =>
  value === null ? (limit.blank ?? '—') : value.toLocaleString('en-US')
