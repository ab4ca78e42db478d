/**
 * The local payment sandbox's test cards (docs/decisions/010-payments.md): its customer portal
 * lets a member switch between them, as Paddle's portal updates a real payment method.
 */
export const SANDBOX_CARDS = {
  visa: { brand: 'visa', last4: '4242', number: '4242 4242 4242 4242', label: 'Visa' },
  mastercard: { brand: 'mastercard', last4: '4444', number: '5555 5555 5555 4444', label: 'Mastercard' },
} as const

export type SandboxCard = keyof typeof SANDBOX_CARDS

export const isSandboxCard = (value: unknown): value is SandboxCard => value === 'visa' || value === 'mastercard'
