import { startAuthentication, startRegistration } from '@simplewebauthn/browser'

// The browser's half of a passkey (docs/decisions/023): ask the server for options, let the
// browser and the authenticator make the credential or the assertion, send the answer back. The
// challenge travels in an HttpOnly cookie the server set with the options.

type Answer = { data?: unknown; message?: string }

async function post(path: string, body?: unknown): Promise<Answer & { ok: boolean }> {
  const response = await fetch(path, {
    method: 'POST',
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const answer = (await response.json().catch(() => ({}))) as Answer
  return { ...answer, ok: response.ok }
}

/** Why a WebAuthn call ended without an answer, in words (the person cancelled, or the device cannot). */
function browserRefusal(error: unknown): string {
  const name = error instanceof Error ? error.name : ''
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey request was cancelled or timed out.'
  if (name === 'InvalidStateError') return 'This device already has a passkey for your account.'
  return error instanceof Error && error.message ? error.message : 'This browser could not use a passkey.'
}

/** Adds a passkey to the signed-in account; the error message, or null when it was added. */
export async function addPasskey(name: string, password: string): Promise<string | null> {
  const options = await post('/api/auth/passkeys/options', { name, password })
  if (!options.ok) return options.message ?? 'The passkey could not be started.'
  let response: unknown
  try {
    response = await startRegistration({ optionsJSON: options.data as Parameters<typeof startRegistration>[0]['optionsJSON'] })
  } catch (error) {
    return browserRefusal(error)
  }
  const saved = await post('/api/auth/passkeys', { name, response })
  return saved.ok ? null : (saved.message ?? 'The passkey could not be saved.')
}

/** Signs in with a passkey; the error message, or null when signed in (the session cookie is set). */
export async function signInWithPasskey(): Promise<string | null> {
  const options = await post('/api/auth/login/passkey/options')
  if (!options.ok) return options.message ?? 'Passkey sign-in could not be started.'
  let response: unknown
  try {
    response = await startAuthentication({ optionsJSON: options.data as Parameters<typeof startAuthentication>[0]['optionsJSON'] })
  } catch (error) {
    return browserRefusal(error)
  }
  const signedIn = await post('/api/auth/login/passkey', { response })
  return signedIn.ok ? null : (signedIn.message ?? 'Passkey sign-in failed.')
}
