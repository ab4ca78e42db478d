import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import type { AppSettings } from '#common/settings.ts'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'

/** System Settings: General and Advanced, saved together ('Settings saved'), enforced at once. */
export function SettingsForm({ settings }: { settings: AppSettings }) {
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data)
  const invalid = (field: string) => (fetcher.data && !fetcher.data.ok && fetcher.data.field === field ? true : undefined)
  return (
    <fetcher.Form method="post" className="space-y-6" noValidate>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle level={2}>General</CardTitle>
            <CardDescription>The site&apos;s name and description appear in page titles and previews.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <div className="space-y-2">
              <Label htmlFor="settings-site-name">Site Name</Label>
              <Input
                id="settings-site-name"
                name="siteName"
                defaultValue={settings.siteName}
                required
                maxLength={60}
                aria-invalid={invalid('siteName')}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="settings-description">Description</Label>
              <Textarea id="settings-description" name="description" defaultValue={settings.description} rows={3} maxLength={300} />
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle level={2}>Advanced</CardTitle>
            <CardDescription>New accounts, the default colour scheme, maintenance and API limits.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="space-y-2">
                <Label htmlFor="settings-credits">Default Credits</Label>
                <Input
                  id="settings-credits"
                  name="defaultCredits"
                  type="number"
                  min={0}
                  step={1}
                  defaultValue={settings.defaultCredits}
                  aria-invalid={invalid('defaultCredits')}
                />
              </div>
              <div className="space-y-2">
                <Label htmlFor="settings-rate">API Rate Limit (per minute)</Label>
                <Input
                  id="settings-rate"
                  name="apiRateLimit"
                  type="number"
                  min={1}
                  max={10000}
                  step={1}
                  defaultValue={settings.apiRateLimit}
                  aria-invalid={invalid('apiRateLimit')}
                />
              </div>
            </div>
            <div className="space-y-2">
              <Label htmlFor="settings-theme">Default Theme</Label>
              <Select id="settings-theme" name="theme" defaultValue={settings.theme}>
                <option value="dark">Dark</option>
                <option value="light">Light</option>
                <option value="system">System</option>
              </Select>
            </div>
            <div className="flex items-start gap-3 rounded-md border p-3">
              <input
                id="settings-maintenance"
                name="maintenanceMode"
                type="checkbox"
                defaultChecked={settings.maintenanceMode}
                className="mt-1 size-4 accent-primary"
              />
              <div>
                <Label htmlFor="settings-maintenance">Maintenance Mode</Label>
                <p className="text-sm text-muted-foreground">
                  Everyone but admins sees a maintenance page (HTTP 503). Signing in stays open.
                </p>
              </div>
            </div>
          </CardContent>
        </Card>
      </div>
      <Button type="submit" disabled={fetcher.state !== 'idle'}>
        {fetcher.state !== 'idle' ? 'Saving...' : 'Save Settings'}
      </Button>
    </fetcher.Form>
  )
}
