/** Settings' two-factor and passkey forms (docs/decisions/023); the page and its action both read this. */
export const TWO_FACTOR_INTENTS = [
  'two-factor-setup',
  'two-factor-confirm',
  'two-factor-recovery-codes',
  'two-factor-disable',
  'add-passkey',
  'delete-passkey',
] as const
export type TwoFactorIntent = (typeof TWO_FACTOR_INTENTS)[number]

export const isTwoFactorIntent = (intent: string): intent is TwoFactorIntent => (TWO_FACTOR_INTENTS as readonly string[]).includes(intent)
