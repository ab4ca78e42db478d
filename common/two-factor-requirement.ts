import { AppError } from './errors.ts'

// A team workspace that requires two-factor sign-in (docs/decisions/023), without zod: the root
// error boundary of every page reads TWO_FACTOR_REQUIRED, so this file must stay small
// (docs/decisions/008-page-weight.md).

/** A workspace that requires two-factor sign-in refuses a member without it (403). */
export const TWO_FACTOR_REQUIRED = 'TWO_FACTOR_REQUIRED'
export const TWO_FACTOR_REQUIRED_MESSAGE =
  'This workspace requires two-factor sign-in. Set it up in Settings (Two-factor sign-in), then try again.'

export class TwoFactorRequired extends AppError {
  constructor() {
    super(403, TWO_FACTOR_REQUIRED_MESSAGE, TWO_FACTOR_REQUIRED)
  }
}

/** The signed-in person and the workspace they work in, as far as the requirement is concerned. */
interface PersonInWorkspace {
  twoFactorEnabled: boolean
  workspace: { kind: 'personal' | 'team'; requireTwoFactor: boolean } | null
}

/** Whether the person may not work in their current workspace until they turn two-factor on (personal ones never). */
export function lacksRequiredTwoFactor(user: PersonInWorkspace): boolean {
  return Boolean(user.workspace && user.workspace.kind === 'team' && user.workspace.requireTwoFactor && !user.twoFactorEnabled)
}
