import { api, useGatehouse } from '@gatehouse/react';
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ConfirmDialog, ErrorMessage } from '../ui.tsx';

/** The built-in themes (fixed ids, see listEmailThemes): deleting one only resets the project's version of it. */
export const lightThemeId = '1df07ae6-abf3-4a40-83a5-a1a2cbe336ac';
const builtInThemeIds = new Set([lightThemeId, 'a0172b5d-cff0-463b-83bb-85124697373a']);
/** The built-in templates (fixed ids, see listEmailTemplates): deleting one brings back the built-in source. */
const builtInTemplateIds = new Set([
  'e7d009ce-8d47-4528-b245-5bf119f2ffa3',
  'a70fb3a4-56c1-4e42-af25-49d25603abd0',
  '822687fe-8d0a-4467-a0d1-416b6e639478',
  'e84de395-2076-4831-9c19-8e9a96a868e4',
  '066dd73c-36da-4fd0-b6d6-ebf87683f8bc',
]);
export const isBuiltInTheme = (id: string) => builtInThemeIds.has(id);
export const isBuiltInTemplate = (id: string) => builtInTemplateIds.has(id);

/**
 * Optimistic removal from a cached list: the item leaves the list at once; when the server refuses
 * (or cannot be reached) the list is put back as it was; either way the list is then read again.
 * `keep` items (built-ins, which a delete only resets) stay in the list.
 */
function optimisticRemoval<List>(
  queryClient: QueryClient,
  listKey: QueryKey,
  remove: (list: List, id: string) => List,
  alsoInvalidate: QueryKey[] = [],
) {
  return {
    onMutate: async (id: string) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const previous = queryClient.getQueryData<List>(listKey);
      if (previous) queryClient.setQueryData<List>(listKey, remove(previous, id));
      return { previous };
    },
    onError: (_error: unknown, _id: string, context: { previous: List | undefined } | undefined) => {
      if (context?.previous) queryClient.setQueryData(listKey, context.previous);
    },
    onSettled: async () => {
      await Promise.all([listKey, ...alsoInvalidate].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  };
}

export type DeleteTarget = { id: string; name: string };

type Noun = 'theme' | 'template' | 'draft';

/** The buttons' and the dialog's words for each kind of item, in the active language. */
function deleteWords(noun: Noun, t: Translate) {
  if (noun === 'theme')
    return {
      resetTitle: (name: string) => t('emailDelete.resetThemeTitle', { name }),
      deleteTitle: (name: string) => t('emailDelete.deleteThemeTitle', { name }),
      resetButton: t('emailDelete.resetTheme'),
      deleteButton: t('emailDelete.deleteTheme'),
    };
  if (noun === 'template')
    return {
      resetTitle: (name: string) => t('emailDelete.resetTemplateTitle', { name }),
      deleteTitle: (name: string) => t('emailDelete.deleteTemplateTitle', { name }),
      resetButton: t('emailDelete.resetTemplate'),
      deleteButton: t('emailDelete.deleteTemplate'),
    };
  return {
    resetTitle: (name: string) => t('emailDelete.deleteDraftTitle', { name }),
    deleteTitle: (name: string) => t('emailDelete.deleteDraftTitle', { name }),
    resetButton: t('emailDelete.deleteDraft'),
    deleteButton: t('emailDelete.deleteDraft'),
  };
}

/** What a delete button needs: the mutation (by id), whether an item is a built-in (reset, not removed), and the dialog's words. */
export type DeleteKind = {
  noun: Noun;
  /** Deletes; `onSuccess` runs once the server has it. */
  run: (id: string, onSuccess?: () => void) => void;
  isPending: boolean;
  error: unknown;
  builtIn: (id: string) => boolean;
  /** Whether the item can be deleted (or reset: a built-in the project has its own version of). */
  available: (id: string) => boolean;
  consequences: (target: DeleteTarget) => string;
};

/**
 * The delete (or, for a built-in, reset) button of one list item and its confirmation dialog. The
 * dialog names what follows from it (the selected theme falling back to Default Light, …); the
 * server's refusal is shown under the list (`kind.error`).
 */
export function DeleteItemButton({
  kind,
  target,
  onAsk,
}: {
  kind: DeleteKind;
  target: DeleteTarget;
  onAsk: (target: DeleteTarget) => void;
}) {
  const { t } = useDashboardTranslation();
  if (!kind.available(target.id)) return null;
  const builtIn = kind.builtIn(target.id);
  return (
    <button
      type="button"
      className="gh-danger"
      aria-label={builtIn ? t('emailDelete.resetNamed', { name: target.name }) : t('emailDelete.deleteNamed', { name: target.name })}
      onClick={() => onAsk(target)}
    >
      {builtIn ? t('emailDelete.reset') : t('emailDelete.delete')}
    </button>
  );
}

export function DeleteDialog({ kind, target, onClose }: { kind: DeleteKind; target: DeleteTarget | null; onClose: () => void }) {
  const builtIn = target ? kind.builtIn(target.id) : false;
  const { t } = useDashboardTranslation();
  const words = deleteWords(kind.noun, t);
  return (
    <ConfirmDialog
      open={target !== null}
      title={target ? (builtIn ? words.resetTitle(target.name) : words.deleteTitle(target.name)) : ''}
      confirmLabel={builtIn ? t('emailDelete.reset') : t('emailDelete.delete')}
      busy={kind.isPending}
      onConfirm={() => {
        if (!target) return;
        // The dialog closes at once: the list shows the removal and puts the item back if it fails.
        kind.run(target.id);
        onClose();
      }}
      onClose={onClose}
    >
      <p>{target ? kind.consequences(target) : null}</p>
    </ConfirmDialog>
  );
}

/**
 * The delete (or reset) of the item an editor shows: confirmed, then back to the emails page once the
 * server has it; a refusal stays on the editor, shown under the button.
 */
export function EditorDeleteButton({ kind, target }: { kind: DeleteKind; target: DeleteTarget }) {
  const gatehouse = useGatehouse();
  const { projectId } = useProjectScope();
  const [asking, setAsking] = useState(false);
  const { t } = useDashboardTranslation();
  const words = deleteWords(kind.noun, t);
  if (!kind.available(target.id)) return null;
  const builtIn = kind.builtIn(target.id);
  return (
    <>
      <button type="button" className="gh-danger" onClick={() => setAsking(true)}>
        {builtIn ? words.resetButton : words.deleteButton}
      </button>
      <ErrorMessage error={kind.error} />
      <ConfirmDialog
        open={asking}
        title={builtIn ? words.resetTitle(target.name) : words.deleteTitle(target.name)}
        confirmLabel={builtIn ? t('emailDelete.reset') : t('emailDelete.delete')}
        busy={kind.isPending}
        onConfirm={() => {
          kind.run(target.id, () => gatehouse.navigate(paths.project(projectId, 'emails')));
          setAsking(false);
        }}
        onClose={() => setAsking(false)}
      >
        <p>{kind.consequences(target)}</p>
      </ConfirmDialog>
    </>
  );
}

/**
 * The ids of the built-in themes and templates the project has its own version of (the rendered
 * config's `emails.themes` / `emails.templates` hold only the project's); until it is read, none.
 */
function useCustomized(kind: 'themes' | 'templates'): (id: string) => boolean {
  const { request } = useProjectScope();
  const config = api.useGetProjectConfig({ request });
  const ids = new Set<string>();
  if (config.data) {
    const rendered = JSON.parse(config.data.config_string) as { emails?: Record<string, Record<string, unknown> | undefined> };
    for (const id of Object.keys(rendered.emails?.[kind] ?? {})) ids.add(id);
  }
  return (id) => ids.has(id);
}

type ThemeList = { themes: Array<{ id: string; display_name: string }> };
type TemplateList = { templates: Array<{ id: string; display_name: string }> };
type DraftList = { drafts: Array<{ id: string; display_name: string }> };

export function useDeleteTheme(selectedThemeId: string): DeleteKind {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const customized = useCustomized('themes');
  const { t } = useDashboardTranslation();
  const removal = optimisticRemoval<ThemeList>(
    queryClient,
    api.getListEmailThemesQueryKey(),
    (list, id) => (isBuiltInTheme(id) ? list : { ...list, themes: list.themes.filter((theme) => theme.id !== id) }),
    // The selected theme falls back to Default Light; templates that named the theme use the selected one.
    [api.getGetAdminProjectQueryKey(), api.getListEmailTemplatesQueryKey(), api.getGetProjectConfigQueryKey()],
  );
  const mutation = api.useDeleteEmailTheme({
    request,
    mutation: {
      onMutate: ({ themeId }) => removal.onMutate(themeId),
      onError: (error, { themeId }, context) => removal.onError(error, themeId, context),
      onSettled: () => removal.onSettled(),
    },
  });
  return {
    noun: 'theme',
    run: (themeId, onSuccess) => mutation.mutate({ themeId }, { onSuccess }),
    isPending: mutation.isPending,
    error: mutation.error,
    builtIn: isBuiltInTheme,
    available: (id) => !isBuiltInTheme(id) || customized(id),
    consequences: ({ id, name }) =>
      isBuiltInTheme(id)
        ? t('emailDelete.themeResetConsequence', { name })
        : id === selectedThemeId
          ? t('emailDelete.selectedThemeConsequence', { name })
          : t('emailDelete.themeConsequence', { name }),
  };
}

export function useDeleteTemplate(): DeleteKind {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const customized = useCustomized('templates');
  const { t } = useDashboardTranslation();
  const removal = optimisticRemoval<TemplateList>(
    queryClient,
    api.getListEmailTemplatesQueryKey(),
    (list, id) => (isBuiltInTemplate(id) ? list : { ...list, templates: list.templates.filter((template) => template.id !== id) }),
    [api.getGetProjectConfigQueryKey()],
  );
  const mutation = api.useDeleteEmailTemplate({
    request,
    mutation: {
      onMutate: ({ templateId }) => removal.onMutate(templateId),
      onError: (error, { templateId }, context) => removal.onError(error, templateId, context),
      onSettled: () => removal.onSettled(),
    },
  });
  return {
    noun: 'template',
    run: (templateId, onSuccess) => mutation.mutate({ templateId }, { onSuccess }),
    isPending: mutation.isPending,
    error: mutation.error,
    builtIn: isBuiltInTemplate,
    available: (id) => !isBuiltInTemplate(id) || customized(id),
    consequences: ({ id, name }) =>
      isBuiltInTemplate(id) ? t('emailDelete.templateResetConsequence', { name }) : t('emailDelete.templateConsequence', { name }),
  };
}

export function useDeleteDraft(): DeleteKind {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const { t } = useDashboardTranslation();
  const removal = optimisticRemoval<DraftList>(queryClient, api.getListEmailDraftsQueryKey(), (list, id) => ({
    ...list,
    drafts: list.drafts.filter((draft) => draft.id !== id),
  }));
  const mutation = api.useDeleteEmailDraft({
    request,
    mutation: {
      onMutate: ({ draftId }) => removal.onMutate(draftId),
      onError: (error, { draftId }, context) => removal.onError(error, draftId, context),
      onSettled: () => removal.onSettled(),
    },
  });
  return {
    noun: 'draft',
    run: (draftId, onSuccess) => mutation.mutate({ draftId }, { onSuccess }),
    isPending: mutation.isPending,
    error: mutation.error,
    builtIn: () => false,
    available: () => true,
    consequences: ({ name }) => t('emailDelete.draftConsequence', { name }),
  };
}
