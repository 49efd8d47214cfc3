// Express's HTML escaping (&amp; &lt; &gt; &quot; &#39;): one escaping for every page the server writes by hand.
import escapeHtml from 'escape-html';
import { EmailNotEditableError, SchemaError, VerificationCodeNotFoundError } from '@gatehouse/protocol/errors';
import type { components } from '@gatehouse/protocol/api-types';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { EmailService } from '../email/index.ts';
import { type EmailOutboxRow, simpleStatusOf } from '../email/index.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { NotificationPreferenceService } from '../notification-preferences/index.ts';
import { findNotificationCategory } from '../notification-preferences/index.ts';
import type { ProjectService } from '../../platform/projects/index.ts';
import type { EmailSendingService } from './email-sending.service.ts';
import { readUnsubscribeCode } from '../email/index.ts';
import { isUuid } from '../../../lib/uuid.ts';

const page = (title: string, message: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:480px;margin:64px auto;padding:0 16px;"><h1 style="font-size:22px;">${title}</h1><p>${message}</p></body></html>`;

const notFound = (id: string) => new PlainHttpError(404, `Email ${id} does not exist.`);
const windows = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000 } as const;

/** The spec's `EmailOutboxEntry`. */
export function toOutboxEntry(row: EmailOutboxRow): components['schemas']['EmailOutboxEntry'] {
  return {
    id: row.id,
    kind: row.kind,
    to: row.to_address ? [row.to_address] : [],
    subject: row.subject,
    html: row.html,
    text: row.text,
    status: row.status,
    simple_status: simpleStatusOf(row.status),
    error: row.error,
    skipped_reason: row.skipped_reason,
    attempts: row.attempts,
    user_id: row.user_id,
    created_at_millis: row.created_at.getTime(),
    scheduled_at_millis: row.next_attempt_at.getTime(),
    sent_at_millis: row.sent_at ? row.sent_at.getTime() : null,
  };
}

export function emailSendingHandlers(services: {
  emailSending: EmailSendingService;
  email: EmailService;
  notificationPreferences: NotificationPreferenceService;
  projects: ProjectService;
  unsubscribeSecret: Buffer;
}) {
  return {
    sendEmail: async (request) => services.emailSending.send(authOf(request).project, request.body),

    sendSignInInvitation: async (request) =>
      services.emailSending.sendSignInInvitation(authOf(request).project, request.body.email, request.body.callback_url),

    listOutboxEmails: async (request) => {
      const { project } = authOf(request);
      const { status, simple_status: simpleStatus, cursor } = request.query;
      const limit = request.query.limit ?? 100;
      if (cursor !== undefined && !isUuid(cursor))
        throw new SchemaError({ message: 'cursor is not a cursor of this list.' }, 'cursor is not a cursor of this list.');
      const rows = await services.email.listOutbox(project.id, {
        status,
        simpleStatus,
        limit: limit + 1,
        cursorId: cursor?.toLowerCase(),
      });
      return {
        items: rows.slice(0, limit).map(toOutboxEntry),
        is_paginated: true as const,
        pagination: { next_cursor: rows[limit]?.id ?? null },
      };
    },

    getOutboxEmail: async (request) => {
      const id = request.params.email_id.toLowerCase();
      const row = await services.email.findOutbox(authOf(request).project.id, id);
      if (!row) throw notFound(request.params.email_id);
      return toOutboxEntry(row);
    },

    updateOutboxEmail: async (request) => {
      const id = request.params.email_id.toLowerCase();
      const result = await services.email.updateUnsent(authOf(request).project.id, id, request.body);
      if (!result) throw notFound(request.params.email_id);
      if ('notEditable' in result) throw new EmailNotEditableError({ email_id: id, status: result.notEditable.status });
      return toOutboxEntry(result.updated);
    },

    listSentEmails: async (request) => {
      const rows = await services.email.listAttempted(authOf(request).project.id, 100);
      return {
        items: rows.map((row) => ({
          id: row.id,
          subject: row.subject,
          sent_at_millis: row.sent_at ? row.sent_at.getTime() : null,
          to: row.to_address ? [row.to_address] : [],
          ...(row.error && row.status !== 'sent' ? { error: row.error } : {}),
        })),
      };
    },

    getEmailDeliveryInfo: async (request) => {
      const projectId = authOf(request).project.id;
      const now = Date.now();
      const since = (millis: number) => new Date(now - millis);
      const sent = await services.email.countSentSince(projectId, {
        hour: since(windows.hour),
        day: since(windows.day),
        week: since(windows.week),
        month: since(windows.month),
        minute: since(60_000),
      });
      const window = (count: number) => ({ sent: count, bounced: 0, marked_as_spam: 0 });
      return {
        stats: { hour: window(sent.hour), day: window(sent.day), week: window(sent.week), month: window(sent.month) },
        capacity: {
          rate_per_second: sent.minute / 60,
          boost_multiplier: 1,
          penalty_factor: 1,
          is_boost_active: false,
          boost_expires_at: null,
        },
      };
    },

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
