import { api, Link, useGatehouse } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ErrorMessage, formatDate, PageHeader, Section, TextField } from '../ui.tsx';
import {
  type DeleteKind,
  DeleteDialog,
  DeleteItemButton,
  type DeleteTarget,
  useDeleteDraft,
  useDeleteTemplate,
  useDeleteTheme,
} from './email-delete.tsx';
import { EmailServerSection } from './email-server-section.tsx';
import { useProjectUpdate } from './project-config.ts';

export { EmailDraftPage, EmailTemplatePage, EmailThemePage } from './email-editors.tsx';

/**
 * The project's emails: the theme every email is wrapped in (selected here), the themes, the
 * templates (one per email the platform sends, plus the project's own) and the drafts, each opening
 * its editor at its own URL (`email-themes/<id>`, `email-templates/<id>`, `email-drafts/<id>`).
 */
export function EmailsPage() {
  const { projectId } = useProjectScope();
  const { t } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={t('nav.emails')}>
        <Link href={paths.project(projectId, 'email-outbox')}>{t('emails.outboxLink')}</Link>
      </PageHeader>
      <EmailServerSection />
      <ThemesSection />
      <TemplatesSection />
      <DraftsSection />
    </>
  );
}

type EditorPage = 'email-themes' | 'email-templates' | 'email-drafts';
type Noun = 'theme' | 'template' | 'draft';

/** The create field's label and button for each kind, in the active language. */
const createWords = (noun: Noun, t: Translate): { label: string; button: string } => {
  if (noun === 'theme') return { label: t('emails.newThemeName'), button: t('emails.createTheme') };
  if (noun === 'template') return { label: t('emails.newTemplateName'), button: t('emails.createTemplate') };
  return { label: t('emails.newDraftName'), button: t('emails.createDraft') };
};

/**
 * One list of themes, templates or drafts: each item links to its editor and has a delete button
 * (with its dialog); below, a name field creates a new one and opens its editor.
 */
function EmailItemsSection<Item extends { id: string; display_name: string }>(props: {
  title: string;
  description: string;
  noun: Noun;
  items: Item[];
  editorPage: EditorPage;
  remove: DeleteKind;
  create: CreateByNameMutation;
  listQueryKey: readonly unknown[];
  /** Shown beside an item's link (a badge). */
  badge?: (item: Item) => ReactNode;
  /** Shown before an item's delete button (its state). */
  aside?: (item: Item) => ReactNode;
  /** Above the list (the theme selection, the empty state). */
  children?: ReactNode;
}) {
  const { projectId } = useProjectScope();
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const { remove, editorPage } = props;
  return (
    <Section title={props.title} description={props.description}>
      {props.children}
      <ul className="dash-list" aria-label={props.title}>
        {props.items.map((item) => {
          const link = <Link href={paths.project(projectId, editorPage, item.id)}>{item.display_name}</Link>;
          const button = <DeleteItemButton kind={remove} target={{ id: item.id, name: item.display_name }} onAsk={setDeleting} />;
          return (
            <li key={item.id}>
              {props.badge ? (
                <span>
                  {link}
                  {props.badge(item)}
                </span>
              ) : (
                link
              )}
              {props.aside ? (
                <span className="dash-row">
                  {props.aside(item)}
                  {button}
                </span>
              ) : (
                button
              )}
            </li>
          );
        })}
      </ul>
      <ErrorMessage error={remove.error} />
      <DeleteDialog kind={remove} target={deleting} onClose={() => setDeleting(null)} />
      <CreateByName
        noun={props.noun}
        create={props.create}
        listQueryKey={props.listQueryKey}
        pageOf={(id) => paths.project(projectId, editorPage, id)}
      />
    </Section>
  );
}

/** What the three "create by name" mutations (theme, template, draft) have in common. */
type CreateByNameMutation = {
  mutate: (variables: { data: { display_name: string } }, options: { onSuccess: (created: { id: string }) => Promise<void> }) => void;
  isPending: boolean;
  error: unknown;
};

/** A name field that creates a theme, template or draft, then opens its editor. */
function CreateByName(props: {
  noun: Noun;
  create: CreateByNameMutation;
  listQueryKey: readonly unknown[];
  pageOf: (id: string) => string;
}) {
  const gatehouse = useGatehouse();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const { create, noun } = props;
  const { t } = useDashboardTranslation();
  const words = createWords(noun, t);

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { data: { display_name: name.trim() } },
      {
        onSuccess: async ({ id }) => {
          await queryClient.invalidateQueries({ queryKey: props.listQueryKey });
          gatehouse.navigate(props.pageOf(id));
        },
      },
    );
  }

  return (
    <>
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField label={words.label} name={`${noun}-name`} value={name} onChange={(event) => setName(event.target.value)} />
        <button type="submit" disabled={create.isPending || !name.trim()}>
          {create.isPending ? t('emails.creating') : words.button}
        </button>
      </form>
      <ErrorMessage error={create.error} />
    </>
  );
}

function ThemesSection() {
  const { request } = useProjectScope();
  const { data } = api.useListEmailThemesSuspense({ request });
  const { data: project } = api.useGetAdminProjectSuspense({ request });
  const update = useProjectUpdate();
  const selectId = useId();
  const selected = project.config.email_theme;
  const { t } = useDashboardTranslation();
  return (
    <EmailItemsSection
      title={t('emails.themes')}
      description={t('emails.themesDescription')}
      noun="theme"
      items={data.themes}
      editorPage="email-themes"
      remove={useDeleteTheme(selected)}
      create={api.useCreateEmailTheme({ request })}
      listQueryKey={api.getListEmailThemesQueryKey()}
      badge={(theme) => (theme.id === selected ? <span className="dash-badge">{t('emails.selected')}</span> : null)}
    >
      <div className="dash-field">
        <label htmlFor={selectId}>{t('emails.projectTheme')}</label>
        <select
          id={selectId}
          value={selected}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ data: { config: { email_theme: event.target.value } } })}
        >
          {data.themes.map((theme) => (
            <option key={theme.id} value={theme.id}>
              {theme.display_name}
            </option>
          ))}
        </select>
      </div>
      <ErrorMessage error={update.error} />
    </EmailItemsSection>
  );
}

function TemplatesSection() {
  const { request } = useProjectScope();
  const { data } = api.useListEmailTemplatesSuspense({ request });
  const { t } = useDashboardTranslation();
  return (
    <EmailItemsSection
      title={t('emails.templates')}
      description={t('emails.templatesDescription')}
      noun="template"
      items={data.templates}
      editorPage="email-templates"
      remove={useDeleteTemplate()}
      create={api.useCreateEmailTemplate({ request })}
      listQueryKey={api.getListEmailTemplatesQueryKey()}
    />
  );
}

function DraftsSection() {
  const { request } = useProjectScope();
  const { data } = api.useListEmailDraftsSuspense({ request });
  const { t } = useDashboardTranslation();
  return (
    <EmailItemsSection
      title={t('emails.drafts')}
      description={t('emails.draftsDescription')}
      noun="draft"
      items={data.drafts}
      editorPage="email-drafts"
      remove={useDeleteDraft()}
      create={api.useCreateEmailDraft({ request })}
      listQueryKey={api.getListEmailDraftsQueryKey()}
      aside={(draft) => (
        <span className="dash-muted">
          {draft.sent_at_millis ? t('emails.sentAt', { date: formatDate(draft.sent_at_millis) }) : t('emails.notSent')}
        </span>
      )}
    >
      {data.drafts.length === 0 ? <p className="dash-muted">{t('emails.noDrafts')}</p> : null}
    </EmailItemsSection>
  );
}
