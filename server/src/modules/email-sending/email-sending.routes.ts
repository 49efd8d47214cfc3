import { VerificationCodeNotFoundError } from '@gatehouse/protocol/errors';
import { authOf } from '../../request-context/auth-of.ts';
import type { OperationHandlers } from '../../routing/operation-handlers.ts';
import type { NotificationPreferenceService } from '../notification-preferences/notification-preference.service.ts';
import { findNotificationCategory } from '../notification-preferences/notification-categories.ts';
import type { ProjectService } from '../projects/project.service.ts';
import type { EmailSendingService } from './email-sending.service.ts';
import { readUnsubscribeCode } from '../email/unsubscribe-code.ts';

const page = (title: string, message: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:480px;margin:64px auto;padding:0 16px;"><h1 style="font-size:22px;">${title}</h1><p>${message}</p></body></html>`;

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

export function emailSendingHandlers(services: {
  emailSending: EmailSendingService;
  notificationPreferences: NotificationPreferenceService;
  projects: ProjectService;
  unsubscribeSecret: Buffer;
}) {
  return {
    sendEmail: async (request) => services.emailSending.send(authOf(request).project, request.body),

    getUnsubscribeLink: async (request, reply) => {
      const target = readUnsubscribeCode(services.unsubscribeSecret, request.query.code);
      const project = target ? await services.projects.find(target.projectId) : undefined;
      const category = target ? findNotificationCategory(target.categoryId) : undefined;
      if (!target || !project || !category?.canDisable) throw new VerificationCodeNotFoundError();
      try {
        await services.notificationPreferences.update(project.id, target.userId, category.id, false);
      } catch {
        // The user was deleted since: nothing is sent to them any more anyway.
        throw new VerificationCodeNotFoundError();
      }
      const message = `You will no longer receive ${escapeHtml(category.name.toLowerCase())} emails from ${escapeHtml(project.display_name)}.`;
      return reply.type('text/html; charset=utf-8').send(page('Unsubscribed', message));
    },
  } satisfies Partial<OperationHandlers>;
}
