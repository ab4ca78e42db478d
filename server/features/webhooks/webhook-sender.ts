import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { createTargetGuard, type LookupAll, type PrivateTargetPolicy } from '#server/browser/target-guard.ts'

export interface SendResult {
  /** The receiver's status; null when no answer came. */
  statusCode: number | null
  ok: boolean
  error: string | null
  responseMs: number
}

export interface SenderConfig {
  /** The cloud runs' policy (RUN_ALLOW_PRIVATE_TARGETS): webhooks reach what runs may reach. */
  privateTargets: PrivateTargetPolicy
  lookup?: LookupAll
  timeoutMs: number
}

/** Whether the target guard lets a webhook URL be saved (null) or why not. */
export async function webhookUrlRefusal(config: Pick<SenderConfig, 'privateTargets' | 'lookup'>, url: string): Promise<string | null> {
  const parsed = new URL(url)
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'Webhook URLs use http or https.'
  const verdict = await createTargetGuard({ policy: config.privateTargets, lookup: config.lookup }).checkUrl(url)
  return verdict.allowed ? null : verdictMessage(verdict.reason)
}

const verdictMessage = (reason: string) =>
  `The webhook URL cannot be used: ${reason.replace('cloud runs may only reach', 'webhooks may only reach')}.`

/**
 * POSTs one signed message. The host is resolved and checked by the cloud runs' target guard at
 * this moment (docs/decisions/012), and the connection goes to the very address checked, so a DNS
 * answer that changed since the URL was saved (rebinding) cannot reach a private address. Redirects
 * are not followed: a 3xx is a failed attempt. Only the status is kept; the body is read up to 1 KB
 * and dropped.
 */
export async function sendWebhook(
  config: SenderConfig,
  target: { url: string; headers: Record<string, string>; body: string },
): Promise<SendResult> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const url = new URL(target.url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { statusCode: null, ok: false, error: 'Webhook URLs use http or https.', responseMs: elapsed() }
  }
  const verdict = await createTargetGuard({ policy: config.privateTargets, lookup: config.lookup }).checkUrl(target.url)
  if (!verdict.allowed) return { statusCode: null, ok: false, error: verdictMessage(verdict.reason), responseMs: elapsed() }
  const address = verdict.addresses[0] ?? ''
  const secure = url.protocol === 'https:'
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1')

  return new Promise<SendResult>((resolve) => {
    let settled = false
    const done = (result: Omit<SendResult, 'responseMs'>) => {
      if (settled) return
      settled = true
      resolve({ ...result, responseMs: elapsed() })
    }
    const options: https.RequestOptions = {
      host: address,
      family: isIP(address),
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: {
        ...target.headers,
        host: url.host,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(target.body)),
        'user-agent': 'Aether-Webhooks/1.0',
      },
      // TLS checks the certificate against the name in the URL, not the address we connect to.
      servername: secure && !isIP(hostname) ? hostname : undefined,
      signal: AbortSignal.timeout(config.timeoutMs),
    }
    const request = (secure ? https : http).request(options, (response) => {
      const status = response.statusCode ?? 0
      let read = 0
      response.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read > 1024) response.destroy()
      })
      const finish = () => {
        const ok = status >= 200 && status < 300
        const error = ok
          ? null
          : status >= 300 && status < 400
            ? `The receiver answered ${status} (a redirect); redirects are not followed.`
            : `The receiver answered ${status}.`
        done({ statusCode: status, ok, error })
      }
      response.on('end', finish)
      response.on('close', finish)
      response.on('error', finish)
    })
    request.on('error', (error: Error) => {
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError'
      done({
        statusCode: null,
        ok: false,
        error: timedOut ? `No answer within ${config.timeoutMs / 1000} s.` : `Could not connect: ${error.message}`,
      })
    })
    request.end(target.body)
  })
}
