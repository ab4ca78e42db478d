import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { runApiRequest } from './run-api-request.ts'

const AUTOMATION = '5b6c1f8e-3f2a-4d0e-9a51-0c7a2f4b9e10'

/** The arguments a POSIX shell gives curl for the command: what it would send. */
function argumentsOf(command: string): string[] {
  const printed = execFileSync('sh', ['-c', command.replace(/^curl /, `printf '%s\\0' `)], { encoding: 'utf8' })
  return printed.split('\0').slice(0, -1)
}

describe('the API request of a run', () => {
  it('starts the automation in the cloud with the run’s inputs and rows, the key as a placeholder', () => {
    const command = runApiRequest('https://aether.example', {
      automationId: AUTOMATION,
      inputs: { shop: "O'Brien & Sons", note: 'a "quoted" $HOME `x`' },
      dataRows: [{ order: '1001' }],
      deviceId: null,
    })
    const args = argumentsOf(command)
    expect(args.slice(0, 3)).toEqual(['-X', 'POST', `https://aether.example/api/automations/${AUTOMATION}/runs`])
    expect(args).toContain('Authorization: Bearer YOUR_API_KEY')
    expect(JSON.parse(args.at(-1)!)).toEqual({
      where: 'cloud',
      inputs: { shop: "O'Brien & Sons", note: 'a "quoted" $HOME `x`' },
      rows: [{ order: '1001' }],
    })
  })

  it('names the local runner a run ran on, and leaves out inputs and rows it had none of', () => {
    const args = argumentsOf(
      runApiRequest('http://localhost:3000', { automationId: AUTOMATION, inputs: {}, dataRows: [], deviceId: 'device-1' }),
    )
    expect(JSON.parse(args.at(-1)!)).toEqual({ deviceId: 'device-1' })
  })
})
