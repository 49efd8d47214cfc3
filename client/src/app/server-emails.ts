import { type AppCall, definedOnly } from './app-call.ts';
import * as op from '@gatehouse/protocol/operations';

/** Who gets an email: listed users, or every user of the project. */
export type EmailRecipients = { userIds: string[] } | { allUsers: true };
/** What it says: raw HTML with a subject, a template with its variables, or a draft. */
export type EmailContent =
  | { html: string; subject: string }
  | { templateId: string; variables?: Record<string, unknown>; subject?: string }
  | { draftId: string; subject?: string };
export type SendEmailOptions = EmailRecipients &
  EmailContent & {
    /** A theme id, `false` for none; absent: the template's own choice, else the project's theme. */
    themeId?: string | false;
    notificationCategoryName?: 'Transactional' | 'Marketing';
    /** Queued until then. */
    scheduledAt?: Date;
  };

/** Emails to the project's users (server and admin apps). */
export type ServerEmails = {
  /**
   * Queues the email for each addressed user (users who turned its category off are skipped and
   * the outbox says why); answers the user ids addressed. Needs the project's own email server.
   */
  sendEmail(options: SendEmailOptions): Promise<{ userId: string }[]>;
  /** Emails a sign-in invitation linking to `callbackUrl` (on a trusted domain). */
  sendSignInInvitation(email: string, callbackUrl: string): Promise<void>;
};

export function serverEmails(call: AppCall): ServerEmails {
  return {
    sendEmail: async (options) => {
      const body = definedOnly({
        user_ids: 'userIds' in options ? options.userIds : undefined,
        all_users: 'allUsers' in options ? (true as const) : undefined,
        html: 'html' in options ? options.html : undefined,
        template_id: 'templateId' in options ? options.templateId : undefined,
        variables: 'variables' in options ? options.variables : undefined,
        draft_id: 'draftId' in options ? options.draftId : undefined,
        subject: options.subject,
        theme_id: options.themeId,
        notification_category_name: options.notificationCategoryName,
        scheduled_at_millis: options.scheduledAt?.getTime(),
      });
      const { results } = await call(op.sendEmail, { body });
      return results.map((result) => ({ userId: result.user_id }));
    },
    sendSignInInvitation: async (email, callbackUrl) => {
      await call(op.sendSignInInvitation, { body: { email, callback_url: callbackUrl } });
    },
  };
}
