import { randomUUID } from 'node:crypto';
import type { DbHandle } from '../../../db/handle.ts';
import { blankTemplate } from './built-in-emails.ts';
import { type EmailTemplateView, notFound, type ProjectLike, type ThemeChoice } from './email-content.types.ts';
import { deleteEmailDraft, findEmailDraft, insertEmailDraft, listEmailDrafts, updateEmailDraft } from './email-draft.repository.ts';
import type { EmailDraftRow } from './email-draft.table.ts';

export type EmailDraftView = EmailTemplateView & { sent_at_millis: number | null };

/** Checks a request's theme choice against the project's themes (EmailContentService): a plain 404 for an unknown theme id. */
type ThemeChecker = { themeChoice(project: ProjectLike, choice: ThemeChoice): string | false | undefined };

/**
 * Email drafts (`/internal/email-drafts`): TSX sources in their own table, each with a theme choice,
 * sent through send-email with `draft_id`.
 */
export class EmailDraftService {
  constructor(
    private readonly db: DbHandle,
    private readonly themes: ThemeChecker,
  ) {}

  async list(project: ProjectLike): Promise<EmailDraftView[]> {
    return (await listEmailDrafts(this.db, project.id)).map(draftView);
  }

  async get(project: ProjectLike, id: string): Promise<EmailDraftView> {
    const row = await findEmailDraft(this.db, project.id, id.toLowerCase());
    if (!row) throw notFound('Email draft', id);
    return draftView(row);
  }

  async create(project: ProjectLike, input: { display_name: string; tsx_source?: string; theme_id?: ThemeChoice }): Promise<string> {
    const id = randomUUID();
    await insertEmailDraft(this.db, {
      project_id: project.id,
      id,
      display_name: input.display_name,
      tsx_source: input.tsx_source ?? blankTemplate,
      theme: draftTheme(this.themes.themeChoice(project, input.theme_id)),
      sent_at: null,
    });
    return id;
  }

  async update(
    project: ProjectLike,
    id: string,
    input: { display_name?: string; tsx_source?: string; theme_id?: ThemeChoice; sent_at_millis?: number | null },
  ): Promise<void> {
    const changes = {
      ...(input.display_name !== undefined ? { display_name: input.display_name } : {}),
      ...(input.tsx_source !== undefined ? { tsx_source: input.tsx_source } : {}),
      ...(input.theme_id !== undefined ? { theme: draftTheme(this.themes.themeChoice(project, input.theme_id)) } : {}),
      ...(input.sent_at_millis !== undefined ? { sent_at: input.sent_at_millis === null ? null : new Date(input.sent_at_millis) } : {}),
    };
    if (!(await updateEmailDraft(this.db, project.id, id.toLowerCase(), changes))) throw notFound('Email draft', id);
  }

  async delete(project: ProjectLike, id: string): Promise<void> {
    if (!(await deleteEmailDraft(this.db, project.id, id.toLowerCase()))) throw notFound('Email draft', id);
  }

  /** A draft's source and theme choice (`undefined`: the selected theme); a plain 404 when unknown. */
  async source(project: ProjectLike, id: string): Promise<{ displayName: string; tsxSource: string; themeId: string | false | undefined }> {
    const row = await findEmailDraft(this.db, project.id, id.toLowerCase());
    if (!row) throw notFound('Email draft', id);
    return { displayName: row.display_name, tsxSource: row.tsx_source, themeId: row.theme === 'none' ? false : (row.theme ?? undefined) };
  }

  /** Marks a draft sent (send-email with `draft_id`). */
  async markSent(project: ProjectLike, id: string, at: Date): Promise<void> {
    await updateEmailDraft(this.db, project.id, id.toLowerCase(), { sent_at: at });
  }
}

function draftTheme(themeId: string | false | undefined): string | null {
  return themeId === false ? 'none' : (themeId ?? null);
}

function draftView(row: EmailDraftRow): EmailDraftView {
  return {
    id: row.id,
    display_name: row.display_name,
    tsx_source: row.tsx_source,
    ...(row.theme === null ? {} : { theme_id: row.theme === 'none' ? (false as const) : row.theme }),
    sent_at_millis: row.sent_at ? row.sent_at.getTime() : null,
  };
}
