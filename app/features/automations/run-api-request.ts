/** What stands for the member's API key in a command they copy (Settings → API keys makes one). */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY'

/** Single quotes for a POSIX shell: a quote inside becomes '\'' (close, an escaped quote, open). */
const shellQuoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`

/**
 * The curl command that starts this run's automation as this run was started, with its inputs and
 * rows of data: in the cloud, or on the local runner it ran on.
 */
export function runApiRequest(
  publicUrl: string,
  run: { automationId: string; inputs: Record<string, string>; dataRows: Record<string, string>[]; deviceId: string | null },
): string {
  const body = {
    ...(run.deviceId ? { deviceId: run.deviceId } : { where: 'cloud' }),
    ...(Object.keys(run.inputs).length ? { inputs: run.inputs } : {}),
    ...(run.dataRows.length ? { rows: run.dataRows } : {}),
  }
  return [
    `curl -X POST ${shellQuoted(`${publicUrl}/api/automations/${run.automationId}/runs`)}`,
    `  -H ${shellQuoted(`Authorization: Bearer ${API_KEY_PLACEHOLDER}`)}`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuoted(JSON.stringify(body))}`,
  ].join(' \\\n')
}
