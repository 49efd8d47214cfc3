import { RequiresCustomEmailServerError, SchemaError, UserIdDoesNotExistError } from '@gatehouse/protocol/errors';
import Ajv from 'ajv';
import type { Project } from '../../tenancy/project.ts';
import type { UserRecord } from '../../tenancy/user-record.ts';
import type { EmailContentService, ThemeChoice } from '../email/email-content.service.ts';
import type { EmailService } from '../email/email.service.ts';
import { marketingCategoryId, transactionalCategoryId } from '../notification-preferences/notification-categories.ts';
import type { NotificationPreferenceService } from '../notification-preferences/notification-preference.service.ts';
import type { UserService } from '../users/user.service.ts';
import { signUnsubscribeCode } from './unsubscribe-code.ts';

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
};

/** The template an `html` email is rendered with: the HTML as it is, inside the theme. */
const htmlTemplate = `export function EmailTemplate({ variables }) {
  return <div dangerouslySetInnerHTML={{ __html: variables.html }} />;
}`;

const categoryIds = { Transactional: transactionalCategoryId, Marketing: marketingCategoryId } as const;
const ajv = new Ajv({ allErrors: false, strict: false });
const pageSize = 500;
const parallelSends = 8;

function schemaError(message: string): never {
  throw new SchemaError({ message }, message);
}

/**
 * `POST /emails/send-email`: renders the chosen content for each addressed user (inside the chosen
 * theme, with an unsubscribe link when the email is not transactional), honours each user's
 * notification preferences, and delivers through EmailService (outbox, log, SMTP).
 */
export class EmailSendingService {
  constructor(
    private readonly services: {
      email: EmailService;
      emailContent: EmailContentService;
      users: UserService;
      notificationPreferences: NotificationPreferenceService;
    },
    private readonly options: { publicUrl: string; serverSecret: Buffer },
  ) {}

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
      source = await content.draftSource(project, request.draft_id as string);
    }
    const themeId =
      request.theme_id === undefined || request.theme_id === null ? source.themeId : content.themeChoice(project, request.theme_id);
    const themeSource = content.themeSource(project, themeId);

    // One render up front: the source must render, and it tells the category and the variables' schema.
    const probe = await content.renderOrThrow({
      templateSource: source.tsxSource,
      themeSource,
      props: {
        user: { display_name: 'John Doe', primary_email: 'john.doe@example.com' },
        project: { id: project.id, display_name: project.display_name },
        variables,
      },
    });
    if (probe.variablesSchema && request.template_id !== undefined) {
      const validate = ajv.compile(probe.variablesSchema);
      if (!validate(variables))
        schemaError(`variables do not match the template: ${ajv.errorsText(validate.errors, { dataVar: 'variables' })}`);
    }
    const categoryName = request.notification_category_name ?? (probe.notificationCategory === 'Marketing' ? 'Marketing' : 'Transactional');
    const categoryId = categoryIds[categoryName];

    const users = request.user_ids ? await this.named(project, request.user_ids) : undefined;
    const results: { user_id: string }[] = [];
    const sendTo = async (user: UserRecord) => {
      results.push({ user_id: user.id });
      const subjectFallback = request.subject ?? source.displayName;
      if (!user.primary_email) {
        await this.services.email.recordSkipped(project.id, {
          to: '',
          kind: 'custom',
          subject: subjectFallback,
          reason: 'The user has no primary email.',
        });
        return;
      }
      if (!(await this.services.notificationPreferences.isEnabled(project.id, user.id, categoryId))) {
        await this.services.email.recordSkipped(project.id, {
          to: user.primary_email,
          kind: 'custom',
          subject: subjectFallback,
          reason: `The user turned ${categoryName} emails off.`,
        });
        return;
      }
      const unsubscribeLink =
        categoryName === 'Transactional'
          ? undefined
          : `${this.options.publicUrl}/api/v1/emails/unsubscribe-link?code=${signUnsubscribeCode(this.options.serverSecret, { projectId: project.id, userId: user.id, categoryId })}`;
      const rendered = await content.renderOrThrow({
        templateSource: source.tsxSource,
        themeSource,
        props: {
          user: { id: user.id, display_name: user.display_name, primary_email: user.primary_email },
          project: { id: project.id, display_name: project.display_name },
          variables,
        },
        unsubscribeLink,
      });
      await this.services.email.deliver(project, {
        to: user.primary_email,
        kind: 'custom',
        subject: request.subject ?? rendered.subject ?? source.displayName,
        html: rendered.html,
        text: rendered.text,
      });
    };

    if (users) await inParallel(users, sendTo);
    else {
      let cursor: string | undefined;
      do {
        const page = await this.services.users.list(project.id, {
          limit: pageSize,
          cursor,
          desc: false,
          includeAnonymous: false,
          includeRestricted: true,
          onlyAnonymous: false,
          requireEmailVerification: false,
        });
        await inParallel(page.slice(0, pageSize), sendTo);
        cursor = page[pageSize]?.id;
      } while (cursor);
    }
    if (request.draft_id !== undefined) await content.markDraftSent(project, request.draft_id, new Date());
    return { results };
  }

  /** The named users, in the order given (each once); USER_ID_DOES_NOT_EXIST for any unknown id. */
  private async named(project: Project, ids: string[]): Promise<UserRecord[]> {
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    const users: UserRecord[] = [];
    for (const id of unique) {
      const user = await this.services.users.find(project.id, id);
      if (!user) throw new UserIdDoesNotExistError({ user_id: id });
      users.push(user);
    }
    return users;
  }
}

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(parallelSends, items.length) }, worker));
}
