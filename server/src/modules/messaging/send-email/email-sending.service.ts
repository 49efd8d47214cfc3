import { RequiresCustomEmailServerError, SchemaError, UserIdDoesNotExistError } from '@gatehouse/protocol/errors';
import type { Project } from '../../../tenancy/project.ts';
import type { DbHandle } from '../../../db/handle.ts';
import type { EmailContentService, ThemeChoice } from '../email/index.ts';
import type { EmailService } from '../email/index.ts';
import { assertTrustedUrl } from '../../platform/projects/index.ts';
import {
  findNotificationCategory,
  marketingCategoryId,
  type NotificationCategory,
  transactionalCategoryId,
} from '../notification-preferences/index.ts';
import { enqueueSendEmailRows, existingUserIds } from './email-send.repository.ts';

export type SendEmailRequest = {
  user_ids?: string[];
  all_users?: true;
  subject?: string;
  notification_category_name?: 'Transactional' | 'Marketing';
  theme_id?: ThemeChoice;
  html?: string;
  template_id?: string;
  variables?: Record<string, unknown>;
  draft_id?: string;
  scheduled_at_millis?: number;
  is_high_priority?: boolean;
};

/** Subjects are headers, not HTML: a line break could start a new header. */
const headerText = (value: string): string => value.replace(/[\r\n]+/g, ' ');

/** The template an `html` email is rendered with: the HTML as it is, inside the theme. */
const htmlTemplate = `export function EmailTemplate({ variables }) {
  return <div dangerouslySetInnerHTML={{ __html: variables.html }} />;
}`;

const categoryIds = { Transactional: transactionalCategoryId, Marketing: marketingCategoryId } as const;

function schemaError(message: string): never {
  throw new SchemaError({ message }, message);
}

/**
 * `POST /emails/send-email`: checks the request and renders the content once (it must render; it
 * tells the category and the variables' schema), stores the sources as a batch and queues one outbox
 * row per addressed user in one INSERT … SELECT (skipped rows for users without an address or who
 * turned the category off). The email worker renders each row for its user (inside the theme, with
 * an unsubscribe link when not transactional) and delivers it (EmailService).
 */
export class EmailSendingService {
  constructor(
    private readonly db: DbHandle,
    private readonly services: { email: EmailService; emailContent: EmailContentService },
  ) {}

  /**
   * The sign-in invitation: the project's template of that kind, linking to `callbackUrl` (checked
   * against the trusted domains first, so nothing is sent to an untrusted target). Creates nothing.
   */
  async sendSignInInvitation(project: Project, email: string, callbackUrl: string): Promise<{ success: true }> {
    assertTrustedUrl(project, callbackUrl);
    await this.services.email.send(project, { to: email, kind: 'sign_in_invitation', variables: { link: callbackUrl } });
    return { success: true };
  }

  async send(project: Project, request: SendEmailRequest): Promise<{ results: { user_id: string }[] }> {
    if ((request.user_ids === undefined) === (request.all_users === undefined)) schemaError('Give exactly one of user_ids and all_users.');
    const contents = [request.html, request.template_id, request.draft_id].filter((value) => value !== undefined).length;
    if (contents !== 1) schemaError('Give exactly one of html, template_id and draft_id.');
    if (request.variables !== undefined && request.template_id === undefined) schemaError('variables go with template_id.');
    if (request.html !== undefined && request.subject === undefined) schemaError('An html email needs a subject.');
    if (project.config.emails.server.isShared !== false) throw new RequiresCustomEmailServerError();

    const { emailContent: content } = this.services;
    let source: { tsxSource: string; themeId: string | false | undefined; displayName: string };
    let variables: Record<string, unknown> = {};
    if (request.html !== undefined) {
      source = { tsxSource: htmlTemplate, themeId: undefined, displayName: request.subject ?? '' };
      variables = { html: request.html };
    } else if (request.template_id !== undefined) {
      const template = content.template(project, request.template_id);
      source = { ...template, themeId: template.themeId };
      variables = request.variables ?? {};
    } else {
      source = await content.drafts.source(project, request.draft_id as string);
    }
    const themeId =
      request.theme_id === undefined || request.theme_id === null ? source.themeId : content.themeChoice(project, request.theme_id);
    const themeSource = content.themeSource(project, themeId);

    // One render up front: the source must render, and it tells the category. The variables are
    // checked against the template's schema on the render thread (RE2 patterns, an Ajv per schema).
    const probe = await content.renderOrThrow({
      templateSource: source.tsxSource,
      themeSource,
      props: {
        user: { display_name: 'John Doe', primary_email: 'john.doe@example.com' },
        project: { id: project.id, display_name: project.display_name },
        variables,
      },
      validateVariables: request.template_id !== undefined,
    });
    if (probe.variablesError !== undefined) schemaError(`variables do not match the template: ${probe.variablesError}`);
    const categoryName = request.notification_category_name ?? (probe.notificationCategory === 'Marketing' ? 'Marketing' : 'Transactional');
    const categoryId = categoryIds[categoryName];

    const userIds = request.user_ids ? await this.named(project, request.user_ids) : undefined;
    const category = findNotificationCategory(categoryId) as NotificationCategory;
    const batchId = await this.services.email.createSendBatch(project.id, {
      templateSource: source.tsxSource,
      themeSource,
      variables,
      subject: request.subject,
      fallbackSubject: request.subject ?? source.displayName,
      notificationCategoryId: categoryId,
    });
    const scheduled = request.scheduled_at_millis === undefined ? Date.now() : Math.max(Date.now(), request.scheduled_at_millis);
    // High priority: due an hour earlier, so the worker claims it before the rows queued in the last hour.
    const dueAt = new Date(scheduled - (request.is_high_priority ? 3_600_000 : 0));
    const addressed = await enqueueSendEmailRows(this.db, project.id, {
      batchId,
      userIds,
      categoryId,
      categoryName,
      canDisable: category.canDisable,
      defaultEnabled: category.defaultEnabled,
      subject: headerText(request.subject ?? source.displayName),
      dueAt,
    });
    this.services.email.kick();
    if (request.draft_id !== undefined) await content.drafts.markSent(project, request.draft_id, new Date());
    return { results: addressed.map((user_id) => ({ user_id })) };
  }

  /** The named users (each once); USER_ID_DOES_NOT_EXIST for any unknown id. */
  private async named(project: Project, ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    const existing = await existingUserIds(this.db, project.id, unique);
    const unknown = unique.find((id) => !existing.has(id));
    if (unknown !== undefined) throw new UserIdDoesNotExistError({ user_id: ids.find((id) => id.toLowerCase() === unknown) ?? unknown });
    return unique;
  }
}
