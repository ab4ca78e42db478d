import { DELETION_LINK_MINUTES, longDate } from '#common/account-data.ts'
import type { Mailer } from '#server/features/mail/mailer.ts'

/** The e-mails of an account's deletion (docs/decisions/065): asked for, confirmed by link, cancelled. */
export function createDeletionMail(mailer: Pick<Mailer, 'send'>, publicUrl: string) {
  return {
    scheduled: (to: string, eraseAfter: Date) =>
      mailer.send({
        to,
        subject: `Your Aether account will be deleted on ${longDate(eraseAfter)}`,
        text:
          `You asked us to delete your Aether account ${to}. We signed you out everywhere, and your API keys, ` +
          `connected devices, trigger URLs and schedules have stopped.\n\n` +
          `On ${longDate(eraseAfter)} we erase the account: your profile, your personal workspace and the team ` +
          `workspaces only you are in, with their automations, runs and run files, and we cancel their ` +
          `subscriptions, so nothing more is charged.\n\n` +
          `Changed your mind? Sign in before then and the deletion is cancelled, with nothing lost:\n\n${publicUrl}/auth\n\n` +
          `If you did not ask for this, sign in now and change your password.\n\n— Aether`,
      }),

    confirmByLink: (to: string, token: string) =>
      mailer.send({
        to,
        subject: 'Confirm the deletion of your Aether account',
        text:
          `Someone signed in to your Aether account ${to} asked to delete it. Your account has no password, so ` +
          `we ask you here. To go on, open this link while signed in and confirm:\n\n` +
          `${publicUrl}/settings?token=${encodeURIComponent(token)}#delete-account\n\n` +
          `The link works for ${DELETION_LINK_MINUTES} minutes. Nothing is deleted unless you confirm; if you did ` +
          `not ask for this, you can ignore this e-mail.\n\n— Aether`,
      }),

    cancelled: (to: string, eraseAfter: Date) =>
      mailer.send({
        to,
        subject: 'Your Aether account will not be deleted',
        text:
          `You signed in to your Aether account ${to}, so its deletion, planned for ${longDate(eraseAfter)}, is ` +
          `cancelled. Everything is as it was: your API keys, connected devices, trigger URLs and schedules work ` +
          `again. Runs that were stopped when you asked stay stopped.\n\n` +
          `If it was not you who signed in, change your password now.\n\n— Aether`,
      }),
  }
}

export type DeletionMail = ReturnType<typeof createDeletionMail>
