import type { OperationBody, OperationResult, Schema } from '@gatehouse/protocol/operation-types';
import { type AppCall, definedOnly } from './app-call.ts';
import * as op from '@gatehouse/protocol/operations';

export type EmailThemeSummary = Schema<'EmailThemeList'>['themes'][number];
export type EmailThemeDetail = Schema<'EmailThemeDetail'>;
export type EmailTemplate = Schema<'EmailTemplate'>;
export type EmailDraft = Schema<'EmailDraft'>;
export type EditableRegion = Schema<'EditableRegion'>;
export type RenderedEmail = Schema<'RenderedEmail'>;
/** A theme id, `false` for no theme, `null` for the project's selected theme. */
export type EmailThemeChoice = Schema<'ThemeChoice'>;

/**
 * What to render: a template by id or by source, inside a theme by id (`false`: none; absent or
 * `null`: the template's own choice) or by source. `editableMarkers` marks the static texts of the
 * template (or `editableSource`: `theme`, `both`) as regions an editor can map back to the source.
 */
export type RenderEmailInput = ({ templateId: string; templateSource?: never } | { templateSource: string; templateId?: never }) &
  ({ themeId?: EmailThemeChoice; themeSource?: never } | { themeSource: string; themeId?: never }) & {
    editableMarkers?: boolean;
    editableSource?: 'template' | 'theme' | 'both';
  };

/**
 * The project's email themes, templates and drafts (TSX sources) and previews (admin app). Sources
 * that do not compile or render reject with EmailRenderingError (`details.error` has the message and,
 * for a compile error, `file:line:column`); unknown ids reject with an ApiHttpError of status 404.
 */
export type AdminEmails = {
  /** The built-in themes first (Default Light, Default Dark), then the project's. */
  listThemes(): Promise<EmailThemeSummary[]>;
  getTheme(themeId: string): Promise<EmailThemeDetail>;
  /** Starts as a copy of Default Light unless `tsxSource` is given (it must render). Resolves to the new id. */
  createTheme(theme: { displayName: string; tsxSource?: string }): Promise<string>;
  updateTheme(themeId: string, changes: { displayName?: string; tsxSource?: string }): Promise<{ displayName: string }>;
  deleteTheme(themeId: string): Promise<void>;
  /** The theme every email uses unless its template names another (config `emails.selectedThemeId`). */
  getSelectedThemeId(): Promise<string>;
  selectTheme(themeId: string): Promise<void>;

  /** The built-in templates (one per system email, the project's version when edited), then the project's own. */
  listTemplates(): Promise<EmailTemplate[]>;
  /** RequiresCustomEmailServerError on the shared email server. Resolves to the new id. */
  createTemplate(template: { displayName: string; tsxSource?: string; themeId?: EmailThemeChoice }): Promise<string>;
  /** Resolves to the rendered preview of the changed template. RequiresCustomEmailServerError on the shared server. */
  updateTemplate(
    templateId: string,
    changes: { displayName?: string; tsxSource?: string; themeId?: EmailThemeChoice },
  ): Promise<{ renderedHtml: string }>;
  deleteTemplate(templateId: string): Promise<void>;

  listDrafts(): Promise<EmailDraft[]>;
  getDraft(draftId: string): Promise<EmailDraft>;
  /** Resolves to the new id. */
  createDraft(draft: { displayName: string; tsxSource?: string; themeId?: EmailThemeChoice }): Promise<string>;
  updateDraft(
    draftId: string,
    changes: { displayName?: string; tsxSource?: string; themeId?: EmailThemeChoice; sentAtMillis?: number | null },
  ): Promise<void>;
  deleteDraft(draftId: string): Promise<void>;

  /** A preview: `html`, `subject`, `notification_category`, and `editable_regions` with `editableMarkers`. */
  render(input: RenderEmailInput): Promise<RenderedEmail>;
};

export function adminEmails(call: AppCall): AdminEmails {
  const theme = (theme_id: string) => ({ params: { theme_id } });
  const template = (template_id: string) => ({ params: { template_id } });
  const draft = (draft_id: string) => ({ params: { draft_id } });
  return {
    listThemes: async () => (await call(op.listEmailThemes)).themes,
    getTheme: (themeId) => call(op.getEmailTheme, theme(themeId)),
    createTheme: async (created) =>
      (await call(op.createEmailTheme, { body: definedOnly({ display_name: created.displayName, tsx_source: created.tsxSource }) })).id,
    updateTheme: async (themeId, changes) => {
      const body = definedOnly({ display_name: changes.displayName, tsx_source: changes.tsxSource });
      return { displayName: (await call(op.updateEmailTheme, { ...theme(themeId), body })).display_name };
    },
    deleteTheme: async (themeId) => {
      await call(op.deleteEmailTheme, theme(themeId));
    },
    getSelectedThemeId: async () => {
      const config = JSON.parse((await call(op.getProjectConfig)).config_string) as { emails: { selectedThemeId: string } };
      return config.emails.selectedThemeId;
    },
    selectTheme: async (themeId) => {
      await call(op.updateProjectConfigOverride, {
        params: { level: 'project' },
        body: { config_override_string: JSON.stringify({ 'emails.selectedThemeId': themeId }) },
      });
    },

    listTemplates: async () => (await call(op.listEmailTemplates)).templates,
    createTemplate: async (created) => {
      const body = definedOnly({ display_name: created.displayName, tsx_source: created.tsxSource, theme_id: created.themeId });
      return (await call(op.createEmailTemplate, { body: body as OperationBody<'createEmailTemplate'> })).id;
    },
    updateTemplate: async (templateId, changes) => {
      const body = definedOnly({ display_name: changes.displayName, tsx_source: changes.tsxSource, theme_id: changes.themeId });
      const answer: OperationResult<'updateEmailTemplate'> = await call(op.updateEmailTemplate, {
        ...template(templateId),
        body: body as OperationBody<'updateEmailTemplate'>,
      });
      return { renderedHtml: answer.rendered_html };
    },
    deleteTemplate: async (templateId) => {
      await call(op.deleteEmailTemplate, template(templateId));
    },

    listDrafts: async () => (await call(op.listEmailDrafts)).drafts,
    getDraft: (draftId) => call(op.getEmailDraft, draft(draftId)),
    createDraft: async (created) => {
      const body = definedOnly({ display_name: created.displayName, tsx_source: created.tsxSource, theme_id: created.themeId });
      return (await call(op.createEmailDraft, { body: body as OperationBody<'createEmailDraft'> })).id;
    },
    updateDraft: async (draftId, changes) => {
      const body = definedOnly({
        display_name: changes.displayName,
        tsx_source: changes.tsxSource,
        theme_id: changes.themeId,
        sent_at_millis: changes.sentAtMillis,
      });
      await call(op.updateEmailDraft, { ...draft(draftId), body: body as OperationBody<'updateEmailDraft'> });
    },
    deleteDraft: async (draftId) => {
      await call(op.deleteEmailDraft, draft(draftId));
    },

    render: (input) => {
      const body = definedOnly({
        template_id: input.templateId,
        template_tsx_source: input.templateSource,
        theme_id: input.themeId,
        theme_tsx_source: input.themeSource,
        editable_markers: input.editableMarkers,
        editable_source: input.editableSource,
      });
      return call(op.renderEmail, { body: body as OperationBody<'renderEmail'> });
    },
  };
}
