import type { Schema } from '@gatehouse/client';
import { api, Link } from '@gatehouse/react';
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { type DeleteKind, EditorDeleteButton, useDeleteDraft, useDeleteTemplate, useDeleteTheme } from './email-delete.tsx';
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
      {...savedEmailProps({ ...theme, id: themeId.toLowerCase() }, remove, save)}
      title={t('emailEditor.themeTitle', { name: theme.display_name })}
      previewBody={(source) => ({ template_tsx_source: themePreviewTemplate, theme_tsx_source: source, editable_source: 'theme' })}
      onSave={(changes, done) =>
        save.mutate(
          { themeId, data: { display_name: changes.displayName, tsx_source: changes.source } },
          refreshThen(queryClient, [api.getGetEmailThemeQueryKey(themeId), api.getListEmailThemesQueryKey()], done),
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
  const themed = useThemedSource(template?.theme_id ?? null);
  const { t } = useDashboardTranslation();
  if (!template) return <NotFound />;
  return (
    <SourceEditor
      kind="template"
      {...savedEmailProps(template, remove, save)}
      {...themed.editorProps}
      title={t('emailEditor.templateTitle', { name: template.display_name })}
      onSave={(changes, done) =>
        save.mutate(
          { templateId: template.id, data: themed.savedFields(changes) },
          refreshThen(queryClient, [api.getListEmailTemplatesQueryKey()], done),
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
  const themed = useThemedSource(draft.theme_id ?? null);
  const { t } = useDashboardTranslation();
  return (
    <>
      <SourceEditor
        kind="draft"
        {...savedEmailProps(draft, remove, save)}
        {...themed.editorProps}
        title={t('emailEditor.draftTitle', { name: draft.display_name })}
        onSave={(changes, done) =>
          save.mutate(
            { draftId: draft.id, data: themed.savedFields(changes) },
            refreshThen(queryClient, [api.getGetEmailDraftQueryKey(draftId), api.getListEmailDraftsQueryKey()], done),
          )
        }
      />
      <SendDraft draftId={draft.id} sentAtMillis={draft.sent_at_millis} />
    </>
  );
}

/** A template or a draft: previewed in the theme picked beside the editor, and saved with that choice. */
function useThemedSource(initial: ThemeChoice) {
  const [themeChoice, setThemeChoice] = useState<ThemeChoice>(initial);
  return {
    editorProps: {
      themePicker: { value: themeChoice, onChange: setThemeChoice },
      previewBody: (source: string) => ({ template_tsx_source: source, theme_id: themeChoice, editable_source: 'template' as const }),
    },
    savedFields: (changes: { displayName: string; source: string }) => ({
      display_name: changes.displayName,
      tsx_source: changes.source,
      theme_id: themeChoice,
    }),
  };
}

/** The editor's props that come from the saved email and its delete and save mutations. */
function savedEmailProps(
  email: { id: string; display_name: string; tsx_source: string },
  remove: DeleteKind,
  save: { isPending: boolean; error: unknown },
) {
  return {
    actions: <EditorDeleteButton kind={remove} target={{ id: email.id, name: email.display_name }} />,
    displayName: email.display_name,
    source: email.tsx_source,
    saving: save.isPending,
    saveError: save.error,
  };
}

/** Mutation options: once saved, the editor's queries are fetched again before it says "saved". */
function refreshThen(queryClient: QueryClient, queryKeys: QueryKey[], done: () => void) {
  return {
    onSuccess: async () => {
      for (const queryKey of queryKeys) await queryClient.invalidateQueries({ queryKey });
      done();
    },
  };
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
