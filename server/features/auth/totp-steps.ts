import { createHmac, timingSafeEqual } from 'node:crypto'
import { and, eq, isNull, lt, or } from 'drizzle-orm'
import type { Auth } from '#server/better-auth.ts'
import type { Db } from '#server/db/client.ts'
import { twoFactors } from '#server/db/schema/index.ts'
import { base32Bytes, hotp } from '#server/one-time-codes.ts'

// One use per code (RFC 6238, section 5.2). Better Auth's two-factor plugin accepts a code of the
// step before, the current one or the one after, as often as it is sent in that time: it records no
// used code (docs/decisions/023). So before a code goes to Better Auth, we find the time step it
// belongs to with the account's secret and claim that step: one conditional UPDATE moves
// two_factors.last_totp_step forward, and a code of that step or an earlier one (a replay, or a
// second request with the same code at the same moment) finds nothing to move and is refused.

/** Better Auth's TOTP settings: we pass none, so its defaults (6 digits, 30-second steps, one step either side). */
const PERIOD_SECONDS = 30
const DIGITS = 6
const WINDOW = 1
/** Secrets imported from elsewhere are stored by Better Auth as `base32:<secret>`; ours are plain. */
const BASE32_PREFIX = 'base32:'

/** What a code is for the account: its step claimed now, a step already used, or no code of now (Better Auth refuses it). */
export type TotpClaim = 'claimed' | 'used' | 'not-a-code'

/** The HMAC key of a decrypted secret, as Better Auth uses it (the text's UTF-8 bytes). */
const keyOf = (secret: string) =>
  secret.startsWith(BASE32_PREFIX) ? base32Bytes(secret.slice(BASE32_PREFIX.length), { skipUnknown: true }) : Buffer.from(secret, 'utf8')

/** The latest step within the window whose code this is; null when it is none of them. */
export function stepOfCode(key: Buffer, code: string, now: number): number | null {
  const current = Math.floor(now / 1000 / PERIOD_SECONDS)
  let found: number | null = null
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    const expected = Buffer.from(hotp(key, step, DIGITS))
    const given = Buffer.from(code)
    if (given.length === expected.length && timingSafeEqual(given, expected)) found = step
  }
  return found
}

export function createTotpSteps(deps: { db: Db; auth: Auth }) {
  const { db, auth } = deps

  async function keyFor(userId: string): Promise<Buffer | null> {
    const [row] = await db.select({ secret: twoFactors.secret }).from(twoFactors).where(eq(twoFactors.userId, userId))
    if (!row) return null
    const [{ symmetricDecrypt }, context] = await Promise.all([import('better-auth/crypto'), auth.$context])
    return keyOf(await symmetricDecrypt({ key: context.secretConfig, data: row.secret }))
  }

  return {
    /**
     * Claims the step of this code for the account, once: 'used' when that step (or a later one)
     * was already claimed. Call it before Better Auth checks the code; 'not-a-code' is left to
     * Better Auth, which refuses it and counts the failure.
     */
    async claim(userId: string, code: string, now = Date.now()): Promise<TotpClaim> {
      const key = await keyFor(userId)
      const step = key ? stepOfCode(key, code.trim(), now) : null
      if (step === null) return 'not-a-code'
      const moved = await db
        .update(twoFactors)
        .set({ lastTotpStep: step })
        .where(and(eq(twoFactors.userId, userId), or(isNull(twoFactors.lastTotpStep), lt(twoFactors.lastTotpStep, step))))
        .returning({ step: twoFactors.lastTotpStep })
      return moved.length === 1 ? 'claimed' : 'used'
    },

    /** A new secret (a set-up started again): its codes have no used step yet. */
    async forget(userId: string): Promise<void> {
      await db.update(twoFactors).set({ lastTotpStep: null }).where(eq(twoFactors.userId, userId))
    },

    /**
     * The account a sign-in ticket (Better Auth's signed two_factor cookie value) stands for, when
     * its signature is right and it has not expired; null otherwise (Better Auth then refuses it).
     */
    async accountOfTicket(ticket: string): Promise<string | null> {
      const dot = ticket.lastIndexOf('.')
      if (dot < 1) return null
      const identifier = ticket.slice(0, dot)
      const context = await auth.$context
      const expected = Buffer.from(createHmac('sha256', context.secret).update(identifier).digest('base64'))
      const given = Buffer.from(ticket.slice(dot + 1))
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
      const found = await context.internalAdapter.findVerificationValue(identifier)
      return found && found.expiresAt > new Date() ? found.value : null
    },
  }
}

export type TotpSteps = ReturnType<typeof createTotpSteps>
