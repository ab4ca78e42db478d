import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { normalizeOrigin } from '#common/secret-origins.ts'
import { migratedUntil } from '#server/testing/migrated-until.ts'

// Migration 0020 binds secrets to origins (docs/decisions/039): a secret that steps type today
// gets the origins of the pages they type it on (the last navigate before each type step that
// names it, in every automation of its workspace), the vault page is told to ask for a check, and
// the activity says what was set; a secret no step types gets none. Runs on PGlite, and on
// PostgreSQL with TEST_DATABASE_URL.
let database: Awaited<ReturnType<typeof migratedUntil>>
beforeEach(async () => {
  database = await migratedUntil('0023_secrets_bound_to_origins', { postgres: true })
})
afterEach(async () => {
  await database.close()
})

const typeStep = (text: string) => ({ type: 'type', target: [{ by: 'label', text: 'Field' }], text })
const navigate = (url: string) => ({ type: 'navigate', url })

async function automation(workspace: string, name: string, steps: unknown[]) {
  await database.client.query('insert into automations (workspace_id, name, steps) values ($1, $2, $3::jsonb)', [
    workspace,
    name,
    JSON.stringify(steps),
  ])
}

async function secret(workspace: string, name: string, kind = 'password') {
  await database.client.query(`insert into vault_secrets (workspace_id, name, kind, sealed_value) values ($1, $2, $3, 'v1.sealed')`, [
    workspace,
    name,
    kind,
  ])
}

describe('migration 0020 (secrets bound to origins)', () => {
  it('gives each secret the origins of the pages its steps type it on, asks for a check, and tells the workspace', async () => {
    await database.client.query(`insert into subscription_plans (name, slug) values ('Free', 'free')`)
    await database.client.query(`insert into workspaces (id, name, kind) values ('team-1', 'Team', 'team'), ('team-2', 'Other', 'team')`)
    for (const [name, kind] of [
      ['shop_password', 'password'],
      ['shop_totp', 'totp'],
      ['unused', 'value'],
      ['in_url_only', 'value'],
      ['input_host', 'value'],
      ['before_any_page', 'value'],
    ] as const)
      await secret('team-1', name, kind)
    await secret('team-2', 'shop_password')

    await automation('team-1', 'Orders', [
      navigate('https://Shop.Example.com:443/login?next=%2Forders'),
      typeStep('{{secrets.shop_password}}'),
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Sign in' }] },
      // The code is typed on the page the click led to; its last navigate is still the shop's.
      typeStep('{{ totp.shop_totp }}'),
    ])
    await automation('team-1', 'Intranet', [
      navigate('http://intranet.local:8080/'),
      { type: 'wait', ms: 100 },
      typeStep('me and {{secrets.shop_password}}'),
      navigate('https://user:pw@APP.example.com:8443/sign-in'),
      typeStep('{{secrets.shop_password}}'),
      navigate('https://leak.example.net/?q={{secrets.in_url_only}}'),
      navigate('https://{{input.host}}/login'),
      typeStep('{{secrets.input_host}}'),
    ])
    await automation('team-1', 'Typed first', [typeStep('{{secrets.before_any_page}}'), navigate('https://later.example.com/')])
    // Another workspace's steps say nothing of this one's secrets, nor the reverse.
    await automation('team-2', 'Theirs', [navigate('https://theirs.example.org/'), typeStep('{{secrets.unused}}')])

    await database.migrateRest()

    const rows = await database.client.query<{
      workspace_id: string
      name: string
      origins: string[]
      from_steps: boolean
      use_role: string
    }>(
      `select workspace_id, name, origins, origins_from_steps_at is not null as from_steps, use_role from vault_secrets order by workspace_id, name`,
    )
    expect(rows.rows).toEqual([
      { workspace_id: 'team-1', name: 'before_any_page', origins: [], from_steps: false, use_role: 'member' },
      { workspace_id: 'team-1', name: 'in_url_only', origins: [], from_steps: false, use_role: 'member' },
      { workspace_id: 'team-1', name: 'input_host', origins: [], from_steps: false, use_role: 'member' },
      {
        workspace_id: 'team-1',
        name: 'shop_password',
        origins: ['http://intranet.local:8080', 'https://app.example.com:8443', 'https://shop.example.com'],
        from_steps: true,
        use_role: 'member',
      },
      { workspace_id: 'team-1', name: 'shop_totp', origins: ['https://shop.example.com'], from_steps: true, use_role: 'member' },
      { workspace_id: 'team-1', name: 'unused', origins: [], from_steps: false, use_role: 'member' },
      { workspace_id: 'team-2', name: 'shop_password', origins: [], from_steps: false, use_role: 'member' },
    ])
    // The database writes an origin as the executor and the vault's forms do.
    for (const address of [
      'https://Shop.Example.com:443/login?next=%2Forders',
      'http://intranet.local:8080/',
      'https://user:pw@APP.example.com:8443/x',
    ]) {
      const verdict = normalizeOrigin(address.replace(/\/\/[^@/]*@/, '//'))
      expect(verdict.ok && rows.rows.flatMap((row) => row.origins)).toContain(verdict.ok ? verdict.origin : null)
    }

    const activity = await database.client.query<{ workspace_id: string; actor_email: string; action: string; summary: string }>(
      `select a.workspace_id, a.actor_email, a.action, a.summary from audit_log a join vault_secrets v on v.id::text = a.target_id order by a.workspace_id, v.name`,
    )
    expect(activity.rows).toEqual([
      {
        workspace_id: 'team-1',
        actor_email: 'Aether',
        action: 'secret.origins.set',
        summary:
          'The secret before_any_page is typed by no automation, so it names no site yet: it cannot be used until you name the sites it may be typed on in Vault.',
      },
      expect.objectContaining({
        workspace_id: 'team-1',
        summary: expect.stringContaining('The secret in_url_only is typed by no automation'),
      }),
      expect.objectContaining({
        workspace_id: 'team-1',
        summary: expect.stringContaining('The secret input_host is typed by no automation'),
      }),
      {
        workspace_id: 'team-1',
        actor_email: 'Aether',
        action: 'secret.origins.set',
        summary:
          'Set the sites the secret shop_password may be typed on from the automations that type it: http://intranet.local:8080, https://app.example.com:8443, https://shop.example.com. Check them in Vault.',
      },
      expect.objectContaining({
        summary:
          'Set the sites the secret shop_totp may be typed on from the automations that type it: https://shop.example.com. Check them in Vault.',
      }),
      expect.objectContaining({ workspace_id: 'team-1', summary: expect.stringContaining('The secret unused is typed by no automation') }),
      expect.objectContaining({
        workspace_id: 'team-2',
        summary: expect.stringContaining('The secret shop_password is typed by no automation'),
      }),
    ])

    // Who may use a secret is one of the three roles, and origins are a list.
    await expect(database.client.query(`update vault_secrets set use_role = 'viewer'`)).rejects.toMatchObject({ code: '23514' })
    await expect(database.client.query(`update vault_secrets set origins = '"https://x.example"'::jsonb`)).rejects.toMatchObject({
      code: '23514',
    })
  })
})
