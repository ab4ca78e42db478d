import { Download } from 'lucide-react'
import { Form, useNavigation } from 'react-router'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { DATA_EXPORT_LINK_DAYS, type DataExportStatus } from '#common/account-data.ts'

/** The member's latest export as Settings shows it. */
export interface DataExportRow {
  status: DataExportStatus
  requestedLabel: string
  expiresLabel: string | null
  size: number | null
  /** Same-site address of the signed download, while it is ready. */
  downloadUrl: string | null
}

const sizeLabel = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`

function ExportStatus({ row }: { row: DataExportRow }) {
  if (row.status === 'queued' || row.status === 'building') {
    return (
      <p className="text-sm">Your export is being prepared (asked for {row.requestedLabel}). We will e-mail you a link when it is ready.</p>
    )
  }
  if (row.status === 'ready' && row.downloadUrl) {
    return (
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span>
          Ready{row.size !== null ? `, ${sizeLabel(row.size)}` : ''}. The link works until {row.expiresLabel}.
        </span>
        <Button asChild variant="outline" size="sm">
          <a href={row.downloadUrl} download>
            <Download aria-hidden="true" />
            Download your data (zip)
          </a>
        </Button>
      </div>
    )
  }
  if (row.status === 'failed')
    return <p className="text-sm text-destructive">Your last export could not be made. Please ask for a new one.</p>
  return <p className="text-sm text-muted-foreground">Your last export, asked for {row.requestedLabel}, has expired and was deleted.</p>
}

/**
 * "Download my data" (docs/decisions/065): everything we hold about the member, as a zip built in
 * the background and e-mailed as a link. A plain form: it works without JavaScript.
 */
export function DataExportCard({ row, error }: { row: DataExportRow | null; error: string | null }) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'request-data-export'
  const open = row?.status === 'queued' || row?.status === 'building'
  return (
    <Card id="data-export" className="scroll-mt-20">
      <CardHeader>
        <CardTitle level={2}>Download my data</CardTitle>
        <CardDescription>
          A zip of everything we hold about you: profile, sign-ins, API keys and devices (never their secrets), workspaces, automations,
          runs with their logs and data, credits, subscriptions and payments, and your runs&apos; files. We prepare it in the background and
          e-mail you a link that works for {DATA_EXPORT_LINK_DAYS} days. One export a day.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {row ? <ExportStatus row={row} /> : null}
        <Form method="post">
          <input type="hidden" name="intent" value="request-data-export" />
          <Button type="submit" variant="outline" disabled={busy || open} aria-describedby="data-export-error">
            {busy ? 'Please wait' : 'Request my data'}
          </Button>
          <FieldError id="data-export-error" errors={error ? [error] : undefined} />
        </Form>
      </CardContent>
    </Card>
  )
}
