import type { Schema } from '@gatehouse/client';
import { api, Link } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { EditorDeleteButton, useDeleteDraft, useDeleteTemplate, useDeleteTheme } from './email-delete.tsx';
import { SendDraft } from './email-send-draft.tsx';
import { SourceEditor } from './email-source-editor.tsx';

type ThemeChoice = Schema<'ThemeChoice'>;

/** The editor pages of a theme, a template and a draft (each at its own URL), on the shared source editor. */
export function EmailThemePage({ themeId }: { themeId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const { data: theme } = api.useGetEmailThemeSuspense(themeId, { request });
  const { data: project } = api.useGetAdminProjectSuspense({ request });
  const save = api.useUpdateEmailTheme({ request });
  const remove = useDeleteTheme(project.config.email_theme);
  const { t } = useDashboardTranslation();
  return (
    <SourceEditor
      kind="theme"
      actions={<EditorDeleteButton kind={remove} target={{ id: themeId.toLowerCase(), name: theme.display_name }} />}
      title={t('emailEditor.themeTitle', { name: theme.display_name })}
      displayName={theme.display_name}
      source={theme.tsx_source}
      previewBody={(source) => ({ template_tsx_source: themePreviewTemplate, theme_tsx_source: source, editable_source: 'theme' })}
      saving={save.isPending}
      saveError={save.error}
      onSave={(changes, done) =>
        save.mutate(
          { themeId, data: { display_name: changes.displayName, tsx_source: changes.source } },
          {
            onSuccess: async () => {
              await queryClient.invalidateQueries({ queryKey: api.getGetEmailThemeQueryKey(themeId) });
              await queryClient.invalidateQueries({ queryKey: api.getListEmailThemesQueryKey() });
              done();
            },
          },
        )
      }
    />
  );
}

export function EmailTemplatePage({ templateId }: { templateId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const { data } = api.useListEmailTemplatesSuspense({ request });
  const save = api.useUpdateEmailTemplate({ request });
  const remove = useDeleteTemplate();
  const template = data.templates.find((candidate) => candidate.id === templateId.toLowerCase());
  const [themeChoice, setThemeChoice] = useState<ThemeChoice>(template?.theme_id ?? null);
  const { t } = useDashboardTranslation();
  if (!template) return <NotFound />;
  return (
    <SourceEditor
      kind="template"
      actions={<EditorDeleteButton kind={remove} target={{ id: template.id, name: template.display_name }} />}
      title={t('emailEditor.templateTitle', { name: template.display_name })}
      displayName={template.display_name}
      source={template.tsx_source}
      themePicker={{ value: themeChoice, onChange: setThemeChoice }}
      previewBody={(source) => ({ template_tsx_source: source, theme_id: themeChoice, editable_source: 'template' })}
      saving={save.isPending}
      saveError={save.error}
      onSave={(changes, done) =>
        save.mutate(
          { templateId: template.id, data: { display_name: changes.displayName, tsx_source: changes.source, theme_id: themeChoice } },
          {
            onSuccess: async () => {
              await queryClient.invalidateQueries({ queryKey: api.getListEmailTemplatesQueryKey() });
              done();
            },
          },
        )
      }
    />
  );
}

export function EmailDraftPage({ draftId }: { draftId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const { data: draft } = api.useGetEmailDraftSuspense(draftId, { request });
  const save = api.useUpdateEmailDraft({ request });
  const remove = useDeleteDraft();
  const [themeChoice, setThemeChoice] = useState<ThemeChoice>(draft.theme_id ?? null);
  const { t } = useDashboardTranslation();
  return (
    <>
      <SourceEditor
        kind="draft"
        actions={<EditorDeleteButton kind={remove} target={{ id: draft.id, name: draft.display_name }} />}
        title={t('emailEditor.draftTitle', { name: draft.display_name })}
        displayName={draft.display_name}
        source={draft.tsx_source}
        themePicker={{ value: themeChoice, onChange: setThemeChoice }}
        previewBody={(source) => ({ template_tsx_source: source, theme_id: themeChoice, editable_source: 'template' })}
        saving={save.isPending}
        saveError={save.error}
        onSave={(changes, done) =>
          save.mutate(
            { draftId: draft.id, data: { display_name: changes.displayName, tsx_source: changes.source, theme_id: themeChoice } },
            {
              onSuccess: async () => {
                await queryClient.invalidateQueries({ queryKey: api.getGetEmailDraftQueryKey(draftId) });
                await queryClient.invalidateQueries({ queryKey: api.getListEmailDraftsQueryKey() });
                done();
              },
            },
          )
        }
      />
      <SendDraft draftId={draft.id} sentAtMillis={draft.sent_at_millis} />
    </>
  );
}

function NotFound() {
  const { projectId } = useProjectScope();
  const { t } = useDashboardTranslation();
  return (
    <div className="dash-panel">
      <h1>{t('emailEditor.noSuchTemplate')}</h1>
      <p>
        <Link href={paths.project(projectId, 'emails')}>{t('emailEditor.backToEmails')}</Link>
      </p>
    </div>
  );
}

/** The sample body a theme is previewed around (the same as the server's check of a theme). */
const themePreviewTemplate = `import { Heading, Text } from '@react-email/components';
export function EmailTemplate({ project }) {
  return (
    <>
      <Heading as="h1">Welcome to {project.display_name}</Heading>
      <Text>This is how your emails look in this theme.</Text>
    </>
  );
}`;
