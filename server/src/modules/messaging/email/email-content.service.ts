import { randomUUID } from 'node:crypto';
import { EmailRenderedOutputTooLargeError, EmailRenderingError, RequiresCustomEmailServerError } from '@gatehouse/protocol/errors';
import type { DbHandle } from '../../../db/handle.ts';
import { mergeOverride, withoutConfigPath } from '../../../tenancy/project-config.ts';
import type { Language } from '../../../tenancy/project-language.ts';
import type { ProjectService } from '../../platform/projects/index.ts';
import {
  blankTemplate,
  builtInSystemTemplateSource,
  builtInTemplates,
  builtInThemes,
  lightThemeId,
  type SystemEmailKind,
  type SystemEmailVariables,
  systemTemplateIds,
  themePreviewTemplate,
} from './built-in-emails.ts';
import { type EmailTemplateView, notFound, type ProjectLike, type ThemeChoice } from './email-content.types.ts';
import { EmailDraftService } from './email-draft.service.ts';
import {
  EmailOutputTooLargeError,
  type EmailProps,
  type EmailRenderer,
  EmailSourceError,
  type RenderedEmail,
} from './rendering/email-renderer.ts';
import { isUuid } from '../../../lib/uuid.ts';
import { builtInSubject, systemEmailFallback } from './system-email-fallback.ts';

export type { EmailDraftView } from './email-draft.service.ts';
export type { EmailTemplateView, ThemeChoice } from './email-content.types.ts';

/** The sample user of previews. */
const previewUser: EmailProps['user'] = {
  id: '00000000-0000-4000-8000-000000000000',
  display_name: 'John Doe',
  primary_email: 'john.doe@example.com',
};

/**
 * Email themes and templates (TSX sources in the project's config, on top of the built-in ones),
 * drafts (a table, `drafts`: email-draft.service.ts), and rendering them in the sandbox. System emails are rendered here too: the
 * project's template of their kind inside the project's selected theme.
 */
export class EmailContentService {
  /** Drafts: their own table, checked against this service's themes. */
  readonly drafts: EmailDraftService;

  constructor(
    db: DbHandle,
    private readonly projects: ProjectService,
    readonly renderer: EmailRenderer,
  ) {
    this.drafts = new EmailDraftService(db, this);
  }

  // ---- themes ----

  listThemes(project: ProjectLike): { id: string; display_name: string }[] {
    return Object.entries(this.themes(project)).map(([id, theme]) => ({ id, display_name: theme.displayName }));
  }

  getTheme(project: ProjectLike, id: string): { display_name: string; tsx_source: string } {
    const theme = this.themes(project)[id.toLowerCase()];
    if (!theme) throw notFound('Email theme', id);
    return { display_name: theme.displayName, tsx_source: theme.tsxSource };
  }

  async createTheme(project: ProjectLike, input: { display_name: string; tsx_source?: string }): Promise<string> {
    const tsxSource = input.tsx_source ?? builtInThemes[lightThemeId]!.tsxSource;
    if (input.tsx_source !== undefined)
      await this.renderOrThrow({ templateSource: themePreviewTemplate, themeSource: tsxSource, props: this.previewProps(project) });
    const id = randomUUID();
    await this.writeConfig(project, { [`emails.themes.${id}`]: { displayName: input.display_name, tsxSource } });
    return id;
  }

  async updateTheme(
    project: ProjectLike,
    id: string,
    input: { display_name?: string; tsx_source?: string },
  ): Promise<{ display_name: string }> {
    const key = id.toLowerCase();
    const current = this.themes(project)[key];
    if (!current) throw notFound('Email theme', id);
    const next = { displayName: input.display_name ?? current.displayName, tsxSource: input.tsx_source ?? current.tsxSource };
    if (input.tsx_source !== undefined) {
      await this.renderOrThrow({ templateSource: themePreviewTemplate, themeSource: next.tsxSource, props: this.previewProps(project) });
    }
    await this.writeConfig(project, { [`emails.themes.${key}`]: next });
    return { display_name: next.displayName };
  }

  async deleteTheme(project: ProjectLike, id: string): Promise<void> {
    const key = id.toLowerCase();
    if (!this.themes(project)[key]) throw notFound('Email theme', id);
    let override = withoutConfigPath(project.config_override, ['emails', 'themes', key]);
    if (project.config.emails.selectedThemeId === key && !builtInThemes[key]) {
      override = mergeOverride(override, { 'emails.selectedThemeId': lightThemeId });
    }
    await this.projects.update(project.id, { configOverride: override });
  }

  // ---- templates ----

  /**
   * The templates as the API shows them. Stored data that would not pass today's config checks
   * (written before them) is read leniently rather than failing the whole list: an entry without
   * its texts is left out, and a theme id that names no theme is shown as absent (the selected
   * theme, which is what rendering falls back to).
   */
  listTemplates(project: ProjectLike): EmailTemplateView[] {
    const themes = this.themes(project);
    return Object.entries(this.templates(project))
      .filter(([, template]) => typeof template.displayName === 'string' && typeof template.tsxSource === 'string')
      .map(([id, template]) => {
        const themeId = template.themeId;
        const known =
          // The spec's EmailTemplate.theme_id is a uuid (or false): an id in another shape cannot be shown.
          themeId === false || (typeof themeId === 'string' && isUuid(themeId) && Object.hasOwn(themes, themeId.toLowerCase()));
        return templateView(id, known ? template : { displayName: template.displayName, tsxSource: template.tsxSource });
      });
  }

  async createTemplate(
    project: ProjectLike,
    input: { display_name: string; tsx_source?: string; theme_id?: ThemeChoice },
  ): Promise<string> {
    this.assertCustomServer(project);
    const themeId = this.checkThemeChoice(project, input.theme_id);
    const tsxSource = input.tsx_source ?? blankTemplate;
    if (input.tsx_source !== undefined) {
      await this.renderOrThrow({
        templateSource: tsxSource,
        themeSource: this.themeSource(project, themeId),
        props: this.previewProps(project),
      });
    }
    const id = randomUUID();
    await this.writeConfig(project, { [`emails.templates.${id}`]: configTemplate(input.display_name, tsxSource, themeId) });
    return id;
  }

  /** The rendered preview of the changed template. */
  async updateTemplate(
    project: ProjectLike,
    id: string,
    input: { display_name?: string; tsx_source?: string; theme_id?: ThemeChoice },
  ): Promise<{ rendered_html: string }> {
    const key = id.toLowerCase();
    const current = this.templates(project)[key];
    if (!current) throw notFound('Email template', id);
    this.assertCustomServer(project);
    const themeId = input.theme_id === undefined ? current.themeId : this.checkThemeChoice(project, input.theme_id);
    const tsxSource = input.tsx_source ?? current.tsxSource;
    const rendered = await this.renderOrThrow({
      templateSource: tsxSource,
      themeSource: this.themeSource(project, themeId),
      props: this.previewProps(project),
    });
    await this.writeConfig(project, {
      [`emails.templates.${key}`]: configTemplate(input.display_name ?? current.displayName, tsxSource, themeId),
    });
    return { rendered_html: rendered.html };
  }

  async deleteTemplate(project: ProjectLike, id: string): Promise<void> {
    const key = id.toLowerCase();
    if (!this.templates(project)[key]) throw notFound('Email template', id);
    await this.projects.update(project.id, { configOverride: withoutConfigPath(project.config_override, ['emails', 'templates', key]) });
  }

  /** A template's source and theme choice; a plain 404 when the project has none by that id. */
  template(project: ProjectLike, id: string): { displayName: string; tsxSource: string; themeId?: string | false } {
    const template = this.templates(project)[id.toLowerCase()];
    if (!template) throw notFound('Email template', id);
    return template;
  }

  /** A theme choice of a request, checked: a plain 404 for an unknown theme id. */
  themeChoice(project: ProjectLike, choice: ThemeChoice): string | false | undefined {
    return this.checkThemeChoice(project, choice);
  }

  // ---- rendering ----

  /**
   * A preview (`POST /emails/render-email`): a template by id or source, inside a theme by id or
   * source; `theme` `undefined`/`null`: the template's own choice (the selected theme for a source).
   */
  async renderPreview(
    project: ProjectLike,
    input: {
      templateId?: string;
      templateSource?: string;
      themeId?: string | false | null;
      themeSource?: string;
      /** Mark the static texts of the template, the theme or both as editable regions. */
      editable?: 'template' | 'theme' | 'both';
    },
  ): Promise<RenderedEmail> {
    let templateSource: string;
    let themeId: string | false | undefined;
    if (input.templateId !== undefined) {
      const template = this.templates(project)[input.templateId.toLowerCase()];
      if (!template) throw notFound('Email template', input.templateId);
      templateSource = template.tsxSource;
      themeId = template.themeId;
    } else {
      templateSource = input.templateSource ?? '';
    }
    let themeSource: string | null;
    if (input.themeSource !== undefined) themeSource = input.themeSource;
    else if (input.themeId === false) themeSource = null;
    else if (typeof input.themeId === 'string') {
      const theme = this.themes(project)[input.themeId.toLowerCase()];
      if (!theme) throw notFound('Email theme', input.themeId);
      themeSource = theme.tsxSource;
    } else themeSource = this.themeSource(project, themeId);
    const editable = input.editable && { template: input.editable !== 'theme', theme: input.editable !== 'template' };
    return this.renderOrThrow({ templateSource, themeSource, props: this.previewProps(project), ...(editable ? { editable } : {}) });
  }

  /**
   * One of the platform's own emails: the project's template of that kind (its edit, else the
   * built-in one) inside the template's theme (the selected one unless it names another). A project
   * source that fails falls back to the built-in template and theme, so a broken edit cannot stop
   * sign-ups; the failure is returned so the caller can log it.
   */
  async renderSystemEmail<K extends SystemEmailKind>(
    project: ProjectLike,
    kind: K,
    variables: SystemEmailVariables[K],
    user: EmailProps['user'],
    language: Language = 'en',
  ): Promise<{ rendered: RenderedEmail & { subject: string }; fallbackReason?: string }> {
    const id = systemTemplateIds[kind];
    // The project's own edit of the template speaks its own words; the built-in one speaks the recipient's language.
    const edited = lowerKeys(project.config.emails.templates)[id];
    const builtIn = builtInSystemTemplateSource(kind, language);
    const props = { user, project: { id: project.id, display_name: project.display_name }, variables };
    try {
      const rendered = await this.renderer.render({
        templateSource: edited ? edited.tsxSource : builtIn,
        themeSource: this.themeSource(project, edited?.themeId),
        props,
        language,
      });
      return { rendered: { ...rendered, subject: rendered.subject ?? builtInSubject(kind, project) } };
    } catch (error) {
      if (!(error instanceof EmailSourceError)) throw error;
      const fallback = systemEmailFallback(kind, language, project);
      const rendered = await this.renderer.render({
        templateSource: fallback.templateSource,
        themeSource: fallback.themeSource,
        props,
        language,
      });
      return { rendered: { ...rendered, subject: rendered.subject ?? builtInSubject(kind, project) }, fallbackReason: error.message };
    }
  }

  /** Renders, turning a failing source into EMAIL_RENDERING_ERROR (EMAIL_RENDERED_OUTPUT_TOO_LARGE over the output limits). */
  async renderOrThrow(request: Parameters<EmailRenderer['render']>[0]): Promise<RenderedEmail> {
    try {
      return await this.renderer.render(request);
    } catch (error) {
      if (error instanceof EmailOutputTooLargeError) throw new EmailRenderedOutputTooLargeError({ error: error.message }, error.message);
      if (error instanceof EmailSourceError) throw new EmailRenderingError({ error: error.message }, error.message);
      throw error;
    }
  }

  /** The source of a theme choice: `false` none, a known id that theme, anything else the selected theme. */
  themeSource(project: ProjectLike, themeId: string | false | undefined): string | null {
    if (themeId === false) return null;
    const themes = this.themes(project);
    return (
      (themeId !== undefined ? themes[themeId] : undefined)?.tsxSource ??
      (themes[project.config.emails.selectedThemeId] ?? themes[lightThemeId]!).tsxSource
    );
  }

  private previewProps(project: ProjectLike): EmailProps {
    return { user: previewUser, project: { id: project.id, display_name: project.display_name } };
  }

  private themes(project: ProjectLike): Record<string, { displayName: string; tsxSource: string }> {
    return { ...builtInThemes, ...lowerKeys(project.config.emails.themes) };
  }

  private templates(project: ProjectLike): Record<string, { displayName: string; tsxSource: string; themeId?: string | false }> {
    return { ...builtInTemplates, ...lowerKeys(project.config.emails.templates) };
  }

  private checkThemeChoice(project: ProjectLike, choice: ThemeChoice): string | false | undefined {
    if (choice === null || choice === undefined) return undefined;
    if (choice === false) return false;
    const key = choice.toLowerCase();
    if (!this.themes(project)[key]) throw notFound('Email theme', choice);
    return key;
  }

  private assertCustomServer(project: ProjectLike): void {
    if (project.config.emails.server.isShared !== false) throw new RequiresCustomEmailServerError();
  }

  private async writeConfig(project: ProjectLike, entries: Record<string, unknown>): Promise<void> {
    await this.projects.update(project.id, { configOverride: mergeOverride(project.config_override, entries) });
  }
}

function lowerKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(record)
      .filter(([, value]) => value && typeof value === 'object')
      .map(([key, value]) => [key.toLowerCase(), value]),
  );
}

function configTemplate(displayName: string, tsxSource: string, themeId: string | false | undefined) {
  return themeId === undefined ? { displayName, tsxSource } : { displayName, tsxSource, themeId };
}

function templateView(id: string, template: { displayName: string; tsxSource: string; themeId?: string | false }): EmailTemplateView {
  return {
    id,
    display_name: template.displayName,
    tsx_source: template.tsxSource,
    ...(template.themeId !== undefined ? { theme_id: template.themeId } : {}),
  };
}
