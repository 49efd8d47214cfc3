import { SchemaError } from '@gatehouse/protocol/errors';
import { authOf } from '../../../request-context/auth-of.ts';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { EmailContentService } from './email-content.service.ts';

function schemaError(message: string): never {
  throw new SchemaError({ message }, message);
}

/** Themes, templates and drafts (`/internal/email-*`) and previews (`/emails/render-email`). */
export function emailContentHandlers(services: { emailContent: EmailContentService }) {
  const content = services.emailContent;
  return {
    listEmailThemes: async (request) => ({ themes: content.listThemes(authOf(request).project) }),
    createEmailTheme: async (request) => ({ id: await content.createTheme(authOf(request).project, request.body) }),
    getEmailTheme: async (request) => content.getTheme(authOf(request).project, request.params.theme_id),
    updateEmailTheme: async (request) => content.updateTheme(authOf(request).project, request.params.theme_id, request.body),
    deleteEmailTheme: async (request) => {
      await content.deleteTheme(authOf(request).project, request.params.theme_id);
      return {};
    },

    listEmailTemplates: async (request) => ({ templates: content.listTemplates(authOf(request).project) }),
    createEmailTemplate: async (request) => ({ id: await content.createTemplate(authOf(request).project, request.body) }),
    updateEmailTemplate: async (request) => content.updateTemplate(authOf(request).project, request.params.template_id, request.body),
    deleteEmailTemplate: async (request) => {
      await content.deleteTemplate(authOf(request).project, request.params.template_id);
      return {};
    },

    listEmailDrafts: async (request) => ({ drafts: await content.drafts.list(authOf(request).project) }),
    createEmailDraft: async (request) => ({ id: await content.drafts.create(authOf(request).project, request.body) }),
    getEmailDraft: async (request) => content.drafts.get(authOf(request).project, request.params.draft_id),
    updateEmailDraft: async (request) => {
      await content.drafts.update(authOf(request).project, request.params.draft_id, request.body);
      return { ok: 'ok' as const };
    },
    deleteEmailDraft: async (request) => {
      await content.drafts.delete(authOf(request).project, request.params.draft_id);
      return { ok: 'ok' as const };
    },

    renderEmail: async (request) => {
      const body = request.body;
      if ((body.template_id === undefined) === (body.template_tsx_source === undefined)) {
        schemaError('Give exactly one of template_id and template_tsx_source.');
      }
      if (body.theme_tsx_source !== undefined && body.theme_id !== undefined)
        schemaError('Give at most one of theme_id and theme_tsx_source.');
      const rendered = await content.renderPreview(authOf(request).project, {
        templateId: body.template_id,
        templateSource: body.template_tsx_source,
        themeId: body.theme_id,
        themeSource: body.theme_tsx_source,
        ...(body.editable_markers === true ? { editable: body.editable_source ?? 'template' } : {}),
      });
      return {
        html: rendered.html,
        ...(rendered.subject !== undefined ? { subject: rendered.subject } : {}),
        ...(rendered.notificationCategory !== undefined ? { notification_category: rendered.notificationCategory } : {}),
        ...(rendered.editableRegions ? { editable_regions: rendered.editableRegions } : {}),
      };
    },
  } satisfies Partial<OperationHandlers>;
}
