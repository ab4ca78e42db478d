import type { Mailer } from '#server/features/mail/mailer.ts'

export const EMAIL_VERIFICATION_HOURS = 24
export const PASSWORD_RESET_HOURS = 1
export const EMAIL_CHANGE_HOURS = 1

/** The account e-mails: each links back to a page of ours that finishes the job. */
export function createAccountMail(mailer: Mailer, publicUrl: string) {
  const link = (path: string, token: string) => `${publicUrl}${path}?token=${encodeURIComponent(token)}`
  const footer = `\n\nIf you did not ask for this, you can ignore this e-mail.\n\n— Aether`
  return {
    verifyEmail: (to: string, token: string) =>
      mailer.send({
        to,
        subject: 'Verify your e-mail address for Aether',
        text: `Welcome to Aether!\n\nPlease confirm that ${to} is your e-mail address:\n\n${link('/verify-email', token)}\n\nThe link works for ${EMAIL_VERIFICATION_HOURS} hours.${footer}`,
      }),

    resetPassword: (to: string, token: string) =>
      mailer.send({
        to,
        subject: 'Reset your Aether password',
        text: `Someone (hopefully you) asked to reset the password of the Aether account ${to}.\n\nChoose a new password here:\n\n${link('/reset-password', token)}\n\nThe link works once, for ${PASSWORD_RESET_HOURS} hour. Signing in with the new password ends every other session.${footer}`,
      }),

    confirmEmailChange: (to: string, token: string) =>
      mailer.send({
        to,
        subject: 'Confirm your new e-mail address for Aether',
        text: `Your Aether account asked to use ${to} as its e-mail address.\n\nConfirm the change here:\n\n${link('/confirm-email', token)}\n\nThe link works once, for ${EMAIL_CHANGE_HOURS} hour. Until you follow it, your account keeps its current address.${footer}`,
      }),

    emailInUse: (to: string) =>
      mailer.send({
        to,
        subject: 'Someone tried to use your e-mail address on Aether',
        text: `An Aether account asked to change its e-mail address to ${to}, but an account with this address already exists, so nothing changed.${footer}`,
      }),

    emailChanged: (to: string, newEmail: string) =>
      mailer.send({
        to,
        subject: 'Your Aether e-mail address was changed',
        text: `The e-mail address of your Aether account is now ${newEmail}. If you did not make this change, reply to this e-mail or contact support right away.\n\n— Aether`,
      }),
  }
}

export type AccountMail = ReturnType<typeof createAccountMail>
