import { PLACEHOLDER_NAME } from './step-placeholders.ts'
import { z } from './zod.ts'

/**
 * What a vault secret is (docs/decisions/025). `totp` holds an authenticator's secret (base32, or
 * the otpauth:// address a QR code carries): steps use its current code as `{{totp.name}}`; the
 * others are typed as they are, as `{{secrets.name}}`.
 */
export const VAULT_SECRET_KINDS = ['username', 'password', 'totp', 'value'] as const
export type VaultSecretKind = (typeof VAULT_SECRET_KINDS)[number]

export const VAULT_SECRET_KIND_NAMES: Record<VaultSecretKind, string> = {
  username: 'User name',
  password: 'Password',
  totp: 'TOTP secret (one-time codes)',
  value: 'Other value',
}

/** The longest value a secret may hold (a long token or a certificate fits). */
export const MAX_SECRET_VALUE_LENGTH = 4000

/** How a step names the secret: `{{secrets.name}}`, or `{{totp.name}}` for a TOTP secret's current code. */
export const secretPlaceholder = (kind: VaultSecretKind, name: string) => (kind === 'totp' ? `{{totp.${name}}}` : `{{secrets.${name}}}`)

const BASE32 = /^[A-Z2-7]+=*$/

/**
 * A TOTP secret as people paste it: base32 with spaces or lower case, or an otpauth:// address.
 * Null when it is not one (a base32 secret of at least 16 characters, i.e. 80 bits).
 */
export function normalizeTotpSecret(input: string): string | null {
  let text = input.trim()
  if (/^otpauth:\/\//i.test(text)) {
    try {
      text = new URL(text).searchParams.get('secret') ?? ''
    } catch {
      return null
    }
  }
  const secret = text.replace(/[\s-]+/g, '').toUpperCase()
  return secret.length >= 16 && BASE32.test(secret) ? secret.replace(/=+$/, '') : null
}

const secretName = z
  .string({ error: 'Name is required.' })
  .trim()
  .min(1, 'Name is required.')
  .max(64, 'Name must be at most 64 characters.')
  .regex(PLACEHOLDER_NAME, 'Name must start with a letter or _ and hold only letters, digits and _ (e.g. shop_password).')

const secretValue = z
  .string({ error: 'Value is required.' })
  .min(1, 'Value is required.')
  .max(MAX_SECRET_VALUE_LENGTH, `Value must be at most ${MAX_SECRET_VALUE_LENGTH} characters.`)

const kind = z.enum(VAULT_SECRET_KINDS, { error: `kind must be one of ${VAULT_SECRET_KINDS.join(', ')}` })

/** The value made ready to keep: a TOTP secret normalised, anything else as typed. */
const checkedValue = (value: string, kind: VaultSecretKind, ctx: z.RefinementCtx): string => {
  if (kind !== 'totp') return value
  const secret = normalizeTotpSecret(value)
  if (secret) return secret
  ctx.addIssue({
    code: 'custom',
    path: ['value'],
    message:
      'A TOTP secret is the base32 key an authenticator app is given (at least 16 letters A–Z and digits 2–7), or its otpauth:// address.',
  })
  return z.NEVER
}

/** A new secret: name, kind and value (the value is never shown again). */
export const vaultSecretCreateSchema = z
  .object({ name: secretName, kind: kind.default('password'), value: secretValue })
  .transform((input, ctx) => ({ ...input, value: checkedValue(input.value, input.kind, ctx) }))
export type VaultSecretCreate = z.output<typeof vaultSecretCreateSchema>

/** A new value for a secret (its name and kind stay). */
export const vaultSecretReplaceSchema = z.object({ value: secretValue })
export type VaultSecretReplace = z.output<typeof vaultSecretReplaceSchema>
