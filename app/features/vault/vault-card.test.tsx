import { renderToStaticMarkup } from 'react-dom/server'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { VaultCard, type SecretRow, type VaultView } from './vault-card.tsx'

// What the Vault page tells a member after migration 0020 (docs/decisions/039): secrets whose
// sites were set from their automations are to be checked, and one with no site cannot be used.

const secret = (name: string, changes: Partial<SecretRow>): SecretRow => ({
  id: `00000000-0000-4000-8000-00000000000${name.length}`,
  name,
  kind: 'password',
  placeholder: `{{secrets.${name}}}`,
  updatedLabel: 'Nov 28, 2026',
  origins: ['https://shop.example.com'],
  useRole: 'member',
  originsSetFromSteps: false,
  canChange: true,
  ...changes,
})

function render(view: VaultView) {
  const router = createMemoryRouter([{ path: '/', element: <VaultCard view={view} formKey={0} /> }])
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
  it('asks to check sites set from the automations, and says which secrets name none', () => {
    const html = render(view([secret('shop', { originsSetFromSteps: true }), secret('unused', { origins: [] }), secret('settled', {})]))
    expect(html).toContain('Check where your secrets may be typed')
    expect(html).toContain('We set the sites of shop from the pages your automations type it on.')
    expect(html).toContain('unused names no site yet: no automation can use it until you name the sites it may be typed on.')
    expect(html).toContain('Sites set from your automations: check them')
    expect(html).toContain('These sites are right')
    expect(html).toContain('No site yet: automations cannot use it until you name one.')
    // Only the secret from the automations asks for a check.
    expect(html.match(/These sites are right/g)).toHaveLength(1)
  })

  it('says nothing of the kind when every secret names its own sites', () => {
    const html = render(view([secret('settled', {})]))
    expect(html).not.toContain('Check where your secrets may be typed')
    expect(html).not.toContain('names no site yet')
    expect(html).toContain('Typed only on <span class="font-mono">https://shop.example.com</span>')
  })
})
