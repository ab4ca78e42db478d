import { renderToStaticMarkup } from 'react-dom/server'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { ADD_SITE_NEEDS_VALUE } from '#common/vault.ts'
import { VaultCard, type SecretRow, type VaultProblem, type VaultView } from './vault-card.tsx'

// What the Vault page tells a member after migration 0023 (docs/decisions/039 and its amendment):
// secrets whose sites were set from their automations are to be confirmed by someone who knows
// the value (until a date), one with no site cannot be used, and a site is added with the value.

const secret = (name: string, changes: Partial<SecretRow>): SecretRow => ({
  id: `00000000-0000-4000-8000-00000000000${name.length}`,
  name,
  kind: 'password',
  placeholder: `{{secrets.${name}}}`,
  updatedLabel: 'Nov 28, 2026',
  origins: ['https://shop.example.com'],
  useRole: 'member',
  originsSetFromSteps: false,
  unconfirmedUntilLabel: null,
  unconfirmedLapsed: false,
  canChange: true,
  ...changes,
})

function render(view: VaultView, problem: VaultProblem | null = null) {
  const router = createMemoryRouter([{ path: '/', element: <VaultCard view={view} formKey={0} problem={problem} /> }])
  return renderToStaticMarkup(<RouterProvider router={router} />)
}

const view = (secrets: SecretRow[]): VaultView => ({
  workspaceName: 'Team',
  secrets,
  canChange: true,
  roleChoices: ['member', 'admin'],
  limit: null,
  planName: 'Business',
})

describe('the Vault page after secrets were bound to sites', () => {
  it('asks someone who knows the value to confirm sites set from the automations, and says which secrets name none', () => {
    const html = render(
      view([
        secret('shop', { originsSetFromSteps: true, unconfirmedUntilLabel: 'Dec 28, 2026' }),
        secret('unused', { origins: [] }),
        secret('settled', {}),
      ]),
    )
    expect(html).toContain('Check where your secrets may be typed')
    expect(html).toContain('We set the sites of shop from the pages your automations type it on.')
    expect(html).toContain('Unconfirmed sites work for 30 days after they were set')
    expect(html).toContain('unused names no site yet: no automation can use it until you name the sites it may be typed on.')
    expect(html).toContain('Sites set from your automations: confirm them')
    expect(html).toContain('These sites are right')
    expect(html).toContain('No site yet: automations cannot use it until you name one.')
    // Only the secret from the automations asks for a confirmation, and it asks for the value (no sites are sent).
    expect(html.match(/aria-label="The sites of [^"]+ are right"/g)).toEqual(['aria-label="The sites of shop are right"'])
    expect(html).toContain('Current value of shop')
    expect(html).toContain('they work until Dec 28, 2026')
    const lapsed = render(
      view([secret('shop', { originsSetFromSteps: true, unconfirmedUntilLabel: 'Oct 28, 2026', unconfirmedLapsed: true })]),
    )
    expect(lapsed).toContain('they stopped working on Oct 28, 2026: runs do not type the value until they are confirmed')
    expect(html).toContain('name="intent" value="confirm-sites-00000000-0000-4000-8000-000000000004"')
    // The only sites field is the new secret's: the confirmation sends none.
    expect(html.match(/name="origins"/g)).toHaveLength(1)
  })

  it('asks for the value in the Sites and roles form once adding a site was refused without it', () => {
    const row = secret('shop', {})
    const closed = render(view([row]))
    expect(closed).not.toContain('Current value of shop')
    const html = render(view([row]), { intent: `secret-rules-${row.id}`, field: 'value', message: ADD_SITE_NEEDS_VALUE })
    expect(html).toContain('Save sites and roles')
    expect(html).toContain('Current value of shop')
    expect(html).toContain(ADD_SITE_NEEDS_VALUE.replaceAll("'", '&#x27;'))
  })

  it('says nothing of the kind when every secret names its own sites', () => {
    const html = render(view([secret('settled', {})]))
    expect(html).not.toContain('Check where your secrets may be typed')
    expect(html).not.toContain('names no site yet')
    expect(html).toContain('Typed only on <span class="font-mono">https://shop.example.com</span>')
  })
})
