import { secretOriginsSchema, secretOriginsTextSchema } from './secret-origins.ts'
import { PLACEHOLDER_NAME } from './step-placeholders.ts'
import type { WorkspaceRole } from './workspaces.ts'
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

/**
 * Who may use a secret in their automations (docs/decisions/039): the least workspace role whose
 * automations may name it. Viewers change no automation, so they are never among them.
 */
export const VAULT_USE_ROLES = ['member', 'admin', 'owner'] as const satisfies readonly WorkspaceRole[]
export type VaultUseRole = (typeof VAULT_USE_ROLES)[number]

export const VAULT_USE_ROLE_NAMES: Record<VaultUseRole, string> = {
  member: 'Members and above',
  admin: 'Admins and the owner',
  owner: 'The owner only',
}

/** The same, as a sentence's subject: '… may use it'. */
export const VAULT_USE_ROLE_WHO: Record<VaultUseRole, string> = {
  member: 'members, admins and the owner',
  admin: 'admins and the owner',
  owner: 'the owner',
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
const useRole = z.enum(VAULT_USE_ROLES, { error: `useRole must be one of ${VAULT_USE_ROLES.join(', ')}` })

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

/**
 * A new secret: name, kind, value (never shown again), the sites it may be typed on (required) and
 * who may use it (members and above unless said otherwise).
 */
export const vaultSecretCreateSchema = z
  .object({
    name: secretName,
    kind: kind.default('password'),
    value: secretValue,
    origins: secretOriginsSchema,
    useRole: useRole.default('member'),
  })
  .transform((input, ctx) => ({ ...input, value: checkedValue(input.value, input.kind, ctx) }))
export type VaultSecretCreate = z.output<typeof vaultSecretCreateSchema>

/** The vault page's form for a new secret: the same, with the origins one per line. */
export const vaultSecretCreateFormSchema = z
  .object({
    name: secretName,
    kind: kind.default('password'),
    value: secretValue,
    origins: secretOriginsTextSchema,
    useRole: useRole.default('member'),
  })
  .transform((input, ctx) => ({ ...input, value: checkedValue(input.value, input.kind, ctx) }))

/** A new value for a secret (its name and kind stay). */
export const vaultSecretReplaceSchema = z.object({ value: secretValue })
export type VaultSecretReplace = z.output<typeof vaultSecretReplaceSchema>

/**
 * Where a secret may be used and by whom: either or both. `value`, the secret's current value,
 * proves that the caller knows it: it is required to add a site, and it confirms sites set from
 * the automations (docs/decisions/039, amended).
 */
export const vaultSecretRulesSchema = z
  .object({ origins: secretOriginsSchema.optional(), useRole: useRole.optional(), value: secretValue.optional() })
  .refine((value) => value.origins !== undefined || value.useRole !== undefined, { message: 'Nothing to update: send origins or useRole.' })
export type VaultSecretRules = z.output<typeof vaultSecretRulesSchema>

/** A form's optional value: an empty field is no value. */
const optionalFormValue = z
  .string()
  .max(MAX_SECRET_VALUE_LENGTH, `Value must be at most ${MAX_SECRET_VALUE_LENGTH} characters.`)
  .optional()
  .transform((value) => (value ? value : undefined))

/** The vault page's form for a secret's sites and roles (the value only when a site is added). */
export const vaultSecretRulesFormSchema = z.object({ origins: secretOriginsTextSchema, useRole, value: optionalFormValue })

/** The words that ask for the value when a site is added without it. */
export const ADD_SITE_NEEDS_VALUE =
  "To add a site, enter the secret's current value: only someone who knows it may send it to another site."

/** The words that ask for the value when sites set from the automations are confirmed without it. */
export const CONFIRM_SITES_NEEDS_VALUE =
  "To confirm these sites, enter the secret's current value: only someone who knows it may vouch for the sites it is sent to."

/** The vault page's "These sites are right": the value proves the member knows it. */
export const vaultSecretConfirmFormSchema = z.object({
  value: z
    .string({ error: CONFIRM_SITES_NEEDS_VALUE })
    .min(1, CONFIRM_SITES_NEEDS_VALUE)
    .max(MAX_SECRET_VALUE_LENGTH, `Value must be at most ${MAX_SECRET_VALUE_LENGTH} characters.`),
})

/** The most tries of a secret's value (adding a site, confirming sites) an hour, whoever tries: a guess is not free. */
export const VAULT_VALUE_PROOF_RATE_LIMIT = { limit: 10, windowSeconds: 3600 } as const

/**
 * How long sites that migration 0023 took from the automations keep working without being
 * confirmed by someone who knows the value (docs/decisions/039, amended): long enough that no
 * automation stops overnight, short enough that a site nobody vouched for does not stay.
 */
export const UNCONFIRMED_SITES_DAYS = 30
const DAY_MS = 86_400_000

/** Until when sites set from the automations at `setAt` work unconfirmed. */
export const unconfirmedSitesUntil = (setAt: Date) => new Date(setAt.getTime() + UNCONFIRMED_SITES_DAYS * DAY_MS)

/** Whether a secret's sites are ones set from the automations that nobody confirmed in time: a run does not type it. */
export const unconfirmedSitesLapsed = (setAt: Date | null, now: number = Date.now()) =>
  setAt !== null && unconfirmedSitesUntil(setAt).getTime() <= now
