import { Download, ExternalLink, Puzzle, Terminal } from 'lucide-react'
import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/extension'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { extensionDownload } from '#app/features/extension/extension-download.server.ts'
import { RUNNER_DOWNLOAD_PATH } from '#app/features/extension/runner-download.ts'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const meta = await seo(
    {
      title: (site) => `Get the ${site} browser extension | Record automations in Chrome`,
      description: 'Install the Aether extension for Chrome and Chromium: record what you do in the browser and save it as an automation.',
      path: '/extension',
      keywords: ['Aether extension', 'Chrome extension', 'record browser automation'],
    },
    context,
  )
  const store = context.services.site.links.extension
  return {
    meta,
    // A store listing when EXTENSION_URL names one; this page is the fallback otherwise.
    storeUrl: /^https?:\/\//.test(store) ? store : null,
    download: extensionDownload(),
    serverUrl: new URL(request.url).origin,
  }
}

export const meta = loaderMeta

const UNPACKED_STEPS = [
  'Download the zip below and unzip it into a folder you keep.',
  'Open chrome://extensions in Chrome, Chromium or Edge and turn on Developer mode (top right).',
  'Choose “Load unpacked” and select the unzipped folder.',
  'Click the Aether icon to open the side panel; in Settings, enter the address below as the Aether server, then Connect.',
  'Approve the code on the page that opens (you are asked to sign in first). The browser then shows in Settings → Devices.',
]

/** /extension: the store listing when there is one, else the built extension to load unpacked, with the steps. */
export default function ExtensionPage() {
  const { storeUrl, download, serverUrl } = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto max-w-3xl space-y-8 px-4 py-10 sm:px-6 sm:py-16">
      <div className="space-y-3">
        <h1 className="flex items-center gap-3 text-3xl font-semibold tracking-tight">
          <Puzzle className="size-8 text-primary" aria-hidden="true" /> The Aether browser extension
        </h1>
        <p className="text-muted-foreground">
          Record what you do in a tab — clicks, typing, choices — and save it as an automation, named the way you see the page. Run your
          automations in this browser or in our cloud, and watch them in Run History.
        </p>
      </div>
      {storeUrl ? (
        <Button asChild size="lg">
          <a href={storeUrl} target="_blank" rel="noopener noreferrer">
            <ExternalLink aria-hidden="true" /> Add to Chrome from the store
          </a>
        </Button>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle level={2}>{storeUrl ? 'Or load it unpacked' : 'Install it unpacked'}</CardTitle>
          <CardDescription>Chrome, Chromium and other Chromium browsers, with Manifest V3.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <ol className="list-decimal space-y-2 pl-5 text-sm">
            {UNPACKED_STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <p className="text-sm">
            This server’s address: <code className="rounded bg-muted px-1.5 py-0.5 font-mono">{serverUrl}</code>
          </p>
          {download ? (
            <Button asChild>
              <a href={download.href} download>
                <Download aria-hidden="true" /> Download the extension (.zip, {download.sizeLabel})
              </a>
            </Button>
          ) : (
            <p role="status" className="rounded-md border border-dashed p-3 text-sm text-muted-foreground">
              This server has no built extension to offer. Whoever runs it can build one with <code>npm run build</code> (or{' '}
              <code>npm run build:extension</code>, which writes extension/.output/).
            </p>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle level={2} className="flex items-center gap-2">
            <Terminal className="size-5" aria-hidden="true" /> Run automations on your own machine
          </CardTitle>
          <CardDescription>
            The local runner runs automations in your installed Chromium, reaching intranet sites and pages behind your own sign-in.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-2 text-sm">
          <p>With Node.js 20 or later and Chrome or Chromium on the machine, install it from this site once:</p>
          <pre className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs">
            {`npm install --global ${serverUrl}${RUNNER_DOWNLOAD_PATH}\naether-runner pair --server ${serverUrl}\naether-runner list\naether-runner run <automation id>\naether-runner serve`}
          </pre>
          <p>
            Or without installing:{' '}
            <code className="font-mono text-xs break-all">{`npx --yes --package ${serverUrl}${RUNNER_DOWNLOAD_PATH} aether-runner pair --server ${serverUrl}`}</code>
            . <code className="font-mono text-xs">aether-runner --help</code> lists every command.
          </p>
          <p>
            For pages behind your own sign-in, sign in once in the window{' '}
            <code className="font-mono text-xs">aether-runner sign-in https://your-site --profile ~/.aether/work</code> opens; runs with{' '}
            <code className="font-mono text-xs">--profile ~/.aether/work</code> then start signed in. Your password never passes through
            Aether.
          </p>
          <p>
            Or record the sign-in with values from the Vault and allow vault values on this browser or runner in Settings → Devices: its
            runs then type them here, only on each secret’s own sites, sealed to a key only that device holds on the way.
          </p>
          <p>
            Connected browsers and runners are listed in{' '}
            <Link to="/settings#devices" className="font-medium underline underline-offset-4">
              Settings → Devices
            </Link>
            , where you can rename or disconnect them, and allow them vault values.
          </p>
        </CardContent>
      </Card>
    </main>
  )
}
