import type { EditableRegion, OperationBody, Schema } from '@gatehouse/client';
import { KnownError } from '@gatehouse/protocol/errors';
import { api, Link, useGatehouse } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { AiChatPanel } from '../ai-chat-panel.tsx';
import { paths, useRoute } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, errorText, formatDate, PageHeader, Section, TextField } from '../ui.tsx';
import { DeleteDialog, DeleteItemButton, type DeleteTarget, useDeleteDraft, useDeleteTemplate, useDeleteTheme } from './email-delete.tsx';
import { SmtpTestEmail } from './email-server-test.tsx';
import { useProjectUpdate } from './project-config.ts';

type ThemeChoice = Schema<'ThemeChoice'>;
type RenderBody = OperationBody<'renderEmail'>;

/**
 * The project's emails: the theme every email is wrapped in (selected here), the themes, the
 * templates (one per email the platform sends, plus the project's own) and the drafts, each opening
 * its editor at its own URL (`email-themes/<id>`, `email-templates/<id>`, `email-drafts/<id>`).
 */
export function EmailsPage() {
  const { projectId } = useProjectScope();
  return (
    <>
      <PageHeader title="Emails">
        <Link href={paths.project(projectId, 'email-outbox')}>Sent emails and outbox</Link>
      </PageHeader>
      <EmailServerSection />
      <ThemesSection />
      <TemplatesSection />
      <DraftsSection />
    </>
  );
}

/** Shared mail server or the project's own SMTP server (custom templates and sending need the latter). */
function EmailServerSection() {
  const { request } = useProjectScope();
  const { data: project } = api.useGetAdminProjectSuspense({ request });
  const update = useProjectUpdate();
  const current = project.config.email_config;
  const [type, setType] = useState<'shared' | 'standard'>(current.type);
  const [fields, setFields] = useState({
    host: current.host ?? '',
    port: current.port === undefined ? '587' : String(current.port),
    username: current.username ?? '',
    password: current.password ?? '',
    sender_name: current.sender_name ?? '',
    sender_email: current.sender_email ?? '',
  });
  const [saved, setSaved] = useState(false);
  const groupId = useId();
  const field = (name: keyof typeof fields, label: string, inputType = 'text') => (
    <TextField
      label={label}
      name={`smtp-${name}`}
      type={inputType}
      value={fields[name]}
      onChange={(event) => {
        setFields({ ...fields, [name]: event.target.value });
        setSaved(false);
      }}
    />
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const email_config =
      type === 'shared'
        ? { type }
        : {
            type,
            host: fields.host.trim(),
            port: Number(fields.port),
            username: fields.username,
            password: fields.password,
            sender_name: fields.sender_name.trim(),
            sender_email: fields.sender_email.trim(),
          };
    update.mutate({ data: { config: { email_config } } }, { onSuccess: () => setSaved(true) });
  }

  return (
    <Section
      title="Email server"
      description="The shared server sends the platform's own emails with the built-in look; editing templates and sending emails need your own SMTP server."
    >
      <form className="dash-stack" onSubmit={submit}>
        <fieldset className="dash-fieldset" aria-labelledby={groupId}>
          <span id={groupId} className="dash-muted">
            Server
          </span>
          <div className="dash-check">
            <input
              id={`${groupId}-shared`}
              type="radio"
              name="email-server"
              checked={type === 'shared'}
              onChange={() => setType('shared')}
            />
            <label htmlFor={`${groupId}-shared`}>Shared server</label>
          </div>
          <div className="dash-check">
            <input
              id={`${groupId}-standard`}
              type="radio"
              name="email-server"
              checked={type === 'standard'}
              onChange={() => setType('standard')}
            />
            <label htmlFor={`${groupId}-standard`}>Own SMTP server</label>
          </div>
        </fieldset>
        {type === 'standard' ? (
          <div className="dash-grid-3">
            {field('host', 'SMTP host')}
            {field('port', 'SMTP port', 'number')}
            {field('username', 'SMTP username')}
            {field('password', 'SMTP password', 'password')}
            {field('sender_name', 'Sender name')}
            {field('sender_email', 'Sender email', 'email')}
          </div>
        ) : null}
        <div className="dash-row">
          <button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save email server'}
          </button>
          {saved ? (
            <span role="status" className="dash-success">
              Email server saved.
            </span>
          ) : null}
        </div>
        <ErrorMessage error={update.error} />
      </form>
      {type === 'standard' ? <SmtpTestEmail server={fields} /> : null}
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
  noun: string;
  create: CreateByNameMutation;
  listQueryKey: readonly unknown[];
  pageOf: (id: string) => string;
}) {
  const gatehouse = useGatehouse();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const { create, noun } = props;

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
        <TextField label={`New ${noun} name`} name={`${noun}-name`} value={name} onChange={(event) => setName(event.target.value)} />
        <button type="submit" disabled={create.isPending || !name.trim()}>
          {create.isPending ? 'Creating…' : `Create ${noun}`}
        </button>
      </form>
      <ErrorMessage error={create.error} />
    </>
  );
}

function ThemesSection() {
  const { projectId, request } = useProjectScope();
  const { data } = api.useListEmailThemesSuspense({ request });
  const { data: project } = api.useGetAdminProjectSuspense({ request });
  const update = useProjectUpdate();
  const selectId = useId();
  const selected = project.config.email_theme;
  const remove = useDeleteTheme(selected);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);

  return (
    <Section title="Themes" description="A theme wraps the body of every email (header, footer, the unsubscribe link).">
      <div className="dash-field">
        <label htmlFor={selectId}>Theme of the project's emails</label>
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
      <ul className="dash-list" aria-label="Themes">
        {data.themes.map((theme) => (
          <li key={theme.id}>
            <span>
              <Link href={paths.project(projectId, 'email-themes', theme.id)}>{theme.display_name}</Link>
              {theme.id === selected ? <span className="dash-badge">selected</span> : null}
            </span>
            <DeleteItemButton kind={remove} target={{ id: theme.id, name: theme.display_name }} onAsk={setDeleting} />
          </li>
        ))}
      </ul>
      <ErrorMessage error={remove.error} />
      <DeleteDialog kind={remove} target={deleting} onClose={() => setDeleting(null)} />
      <CreateByName
        noun="theme"
        create={api.useCreateEmailTheme({ request })}
        listQueryKey={api.getListEmailThemesQueryKey()}
        pageOf={(id) => paths.project(projectId, 'email-themes', id)}
      />
    </Section>
  );
}

function TemplatesSection() {
  const { projectId, request } = useProjectScope();
  const { data } = api.useListEmailTemplatesSuspense({ request });
  const remove = useDeleteTemplate();
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);

  return (
    <Section title="Templates" description="The platform's own emails use the template of their kind; edits apply to the next email sent.">
      <ul className="dash-list" aria-label="Templates">
        {data.templates.map((template) => (
          <li key={template.id}>
            <Link href={paths.project(projectId, 'email-templates', template.id)}>{template.display_name}</Link>
            <DeleteItemButton kind={remove} target={{ id: template.id, name: template.display_name }} onAsk={setDeleting} />
          </li>
        ))}
      </ul>
      <ErrorMessage error={remove.error} />
      <DeleteDialog kind={remove} target={deleting} onClose={() => setDeleting(null)} />
      <CreateByName
        noun="template"
        create={api.useCreateEmailTemplate({ request })}
        listQueryKey={api.getListEmailTemplatesQueryKey()}
        pageOf={(id) => paths.project(projectId, 'email-templates', id)}
      />
    </Section>
  );
}

function DraftsSection() {
  const { projectId, request } = useProjectScope();
  const { data } = api.useListEmailDraftsSuspense({ request });
  const remove = useDeleteDraft();
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);

  return (
    <Section title="Drafts" description="Emails written once and sent to some or all users.">
      {data.drafts.length === 0 ? <p className="dash-muted">No drafts yet.</p> : null}
      <ul className="dash-list" aria-label="Drafts">
        {data.drafts.map((draft) => (
          <li key={draft.id}>
            <Link href={paths.project(projectId, 'email-drafts', draft.id)}>{draft.display_name}</Link>
            <span className="dash-row">
              <span className="dash-muted">{draft.sent_at_millis ? `sent ${formatDate(draft.sent_at_millis)}` : 'not sent'}</span>
              <DeleteItemButton kind={remove} target={{ id: draft.id, name: draft.display_name }} onAsk={setDeleting} />
            </span>
          </li>
        ))}
      </ul>
      <ErrorMessage error={remove.error} />
      <DeleteDialog kind={remove} target={deleting} onClose={() => setDeleting(null)} />
      <CreateByName
        noun="draft"
        create={api.useCreateEmailDraft({ request })}
        listQueryKey={api.getListEmailDraftsQueryKey()}
        pageOf={(id) => paths.project(projectId, 'email-drafts', id)}
      />
    </Section>
  );
}

// ---- editors ----

export function EmailThemePage({ themeId }: { themeId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const { data: theme } = api.useGetEmailThemeSuspense(themeId, { request });
  const save = api.useUpdateEmailTheme({ request });
  return (
    <SourceEditor
      kind="theme"
      title={`Theme: ${theme.display_name}`}
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
  const template = data.templates.find((candidate) => candidate.id === templateId.toLowerCase());
  const [themeChoice, setThemeChoice] = useState<ThemeChoice>(template?.theme_id ?? null);
  if (!template) return <NotFound what="template" />;
  return (
    <SourceEditor
      kind="template"
      title={`Template: ${template.display_name}`}
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
  const [themeChoice, setThemeChoice] = useState<ThemeChoice>(draft.theme_id ?? null);
  return (
    <>
      <SourceEditor
        kind="draft"
        title={`Draft: ${draft.display_name}`}
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

function SendDraft({ draftId, sentAtMillis }: { draftId: string; sentAtMillis: number | null }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const send = api.useSendEmail({ request });
  const [to, setTo] = useState<'all' | 'some'>('some');
  const [userIds, setUserIds] = useState('');
  const [subject, setSubject] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [sentTo, setSentTo] = useState<number | null>(null);
  const ids = userIds
    .split(/[\s,]+/)
    .map((id) => id.trim())
    .filter(Boolean);
  const groupId = useId();

  function confirm() {
    const body: OperationBody<'sendEmail'> = {
      draft_id: draftId,
      ...(to === 'all' ? { all_users: true as const } : { user_ids: ids }),
      ...(subject.trim() ? { subject: subject.trim() } : {}),
    };
    send.mutate(
      { data: body },
      {
        onSuccess: async (answer) => {
          setSentTo(answer.results.length);
          setConfirming(false);
          await queryClient.invalidateQueries({ queryKey: api.getGetEmailDraftQueryKey(draftId) });
        },
        onError: () => setConfirming(false),
      },
    );
  }

  return (
    <Section
      title="Send"
      description={
        sentAtMillis ? `Last sent ${formatDate(sentAtMillis)}. Save your changes before sending.` : 'Save your changes before sending.'
      }
    >
      <fieldset className="dash-fieldset" aria-labelledby={groupId}>
        <span id={groupId} className="dash-muted">
          Recipients
        </span>
        <div className="dash-check">
          <input id={`${groupId}-some`} type="radio" name="recipients" checked={to === 'some'} onChange={() => setTo('some')} />
          <label htmlFor={`${groupId}-some`}>These users</label>
        </div>
        <div className="dash-check">
          <input id={`${groupId}-all`} type="radio" name="recipients" checked={to === 'all'} onChange={() => setTo('all')} />
          <label htmlFor={`${groupId}-all`}>All users</label>
        </div>
      </fieldset>
      {to === 'some' ? (
        <TextField
          label="User ids"
          name="user-ids"
          hint="Separated by commas or spaces."
          value={userIds}
          onChange={(event) => setUserIds(event.target.value)}
        />
      ) : null}
      <TextField
        label="Subject"
        name="subject"
        hint="Leave empty for the draft's own subject."
        value={subject}
        onChange={(event) => setSubject(event.target.value)}
      />
      <div className="dash-row">
        <button
          type="button"
          className="gh-primary"
          disabled={send.isPending || (to === 'some' && ids.length === 0)}
          onClick={() => setConfirming(true)}
        >
          Send…
        </button>
      </div>
      {sentTo !== null ? (
        <p role="status" className="dash-success">
          Sent to {sentTo} {sentTo === 1 ? 'user' : 'users'} (users who turned this kind of email off are skipped).
        </p>
      ) : null}
      <ErrorMessage error={send.error} />
      <ConfirmDialog
        open={confirming}
        title="Send this draft?"
        confirmLabel="Send"
        tone="primary"
        busy={send.isPending}
        onConfirm={confirm}
        onClose={() => setConfirming(false)}
      >
        <p>
          {to === 'all'
            ? 'Every user of the project gets this email.'
            : `${ids.length} ${ids.length === 1 ? 'user gets' : 'users get'} this email.`}
        </p>
      </ConfirmDialog>
    </Section>
  );
}

function NotFound({ what }: { what: string }) {
  const { projectId } = useProjectScope();
  return (
    <div className="dash-panel">
      <h1>No such {what}</h1>
      <p>
        <Link href={paths.project(projectId, 'emails')}>Back to emails</Link>
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

type Preview = { source: string; html: string; subject?: string; regions: EditableRegion[] };

/**
 * A TSX source with its live preview: the source is rendered (debounced) by render-email with
 * editable markers; every static text of the source is listed as a field, and clicking a text in
 * the preview moves to its field, so the owner edits the words without touching the code. A source
 * that fails shows EMAIL_RENDERING_ERROR with its line and column (a button selects that line).
 */
function SourceEditor(props: {
  kind: 'theme' | 'template' | 'draft';
  title: string;
  displayName: string;
  source: string;
  themePicker?: { value: ThemeChoice; onChange: (value: ThemeChoice) => void };
  previewBody: (source: string) => RenderBody;
  saving: boolean;
  saveError: unknown;
  onSave: (changes: { displayName: string; source: string }, done: () => void) => void;
}) {
  const { request } = useProjectScope();
  const route = useRoute();
  const [displayName, setDisplayName] = useState(props.displayName);
  const [source, setSource] = useState(props.source);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [renderError, setRenderError] = useState<unknown>(null);
  const [rendering, setRendering] = useState(false);
  const [saved, setSaved] = useState(false);
  const render = api.useRenderEmail({ request });
  const sourceArea = useRef<HTMLTextAreaElement>(null);
  const textFields = useRef(new Map<string, HTMLInputElement>());
  const sourceId = useId();
  const bodyKey = JSON.stringify({ ...props.previewBody(source), editable_markers: true });
  const mutate = useRef(render.mutate);
  mutate.current = render.mutate;

  // Render the source (debounced); an answer for an older source is dropped.
  const latest = useRef(source);
  latest.current = source;
  useEffect(() => {
    setRendering(true);
    const body = JSON.parse(bodyKey) as RenderBody & { template_tsx_source?: string; theme_tsx_source?: string };
    const rendered = latest.current;
    const timer = setTimeout(() => {
      mutate.current(
        { data: body },
        {
          onSuccess: (answer) => {
            if (latest.current !== rendered) return;
            // The fields' own regions stay while their source is the one rendered (they keep what is being typed, spaces included).
            setPreview((current) => ({
              source: rendered,
              html: answer.html,
              subject: answer.subject,
              regions: current && current.source === rendered ? current.regions : (answer.editable_regions ?? []),
            }));
            setRenderError(null);
            setRendering(false);
          },
          onError: (error) => {
            if (latest.current !== rendered) return;
            setRenderError(error);
            setRendering(false);
          },
        },
      );
    }, 300);
    return () => clearTimeout(timer);
  }, [bodyKey]);

  const regions =
    preview && preview.source === source ? preview.regions.filter((region) => region.source === sourceKind(props.kind)) : null;

  /** Replaces a region's text in the source (JSX-escaped) and shifts the regions after it, so the fields stay in step. */
  function editText(region: EditableRegion, text: string) {
    if (!preview || preview.source !== source) return;
    const written = escapeJsxText(text);
    const next = source.slice(0, region.start) + written + source.slice(region.end);
    const delta = written.length - (region.end - region.start);
    const shifted = preview.regions.map((candidate) => {
      if (candidate.id === region.id) return { ...candidate, end: candidate.end + delta, text: written };
      if (candidate.source === region.source && candidate.start > region.start) {
        return { ...candidate, start: candidate.start + delta, end: candidate.end + delta };
      }
      return candidate;
    });
    setPreview({ ...preview, source: next, regions: shifted });
    setSource(next);
    setSaved(false);
  }

  function goTo(line: number, column: number) {
    const area = sourceArea.current;
    if (!area) return;
    const lines = source.split('\n');
    const start = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + Math.max(column - 1, 0);
    const end = lines.slice(0, line).reduce((sum, text) => sum + text.length + 1, 0) - 1;
    area.focus();
    area.setSelectionRange(start, Math.max(start, end));
  }

  function onPreviewClick(id: string) {
    const field = textFields.current.get(id);
    if (field) {
      field.focus();
      field.select();
    }
  }

  const position = errorPosition(renderError);
  return (
    <>
      <PageHeader title={props.title}>
        <BackToEmails />
      </PageHeader>
      <div className="dash-email-editor">
        <form
          className="dash-email-editor-source dash-stack"
          onSubmit={(event) => {
            event.preventDefault();
            props.onSave({ displayName: displayName.trim() || props.displayName, source }, () => setSaved(true));
          }}
        >
          <TextField label="Name" name="display-name" value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
          {props.themePicker ? <ThemePicker {...props.themePicker} /> : null}
          <fieldset className="dash-fieldset dash-email-texts">
            <legend>Texts</legend>
            {regions === null ? (
              <p className="dash-muted" role="status">
                {renderError ? 'Fix the source to edit its texts.' : 'Reading the texts…'}
              </p>
            ) : regions.length === 0 ? (
              <p className="dash-muted">This source has no static text.</p>
            ) : (
              regions.map((region, index) => (
                <div className="dash-field" key={region.id}>
                  <label htmlFor={`${sourceId}-${region.id}`}>
                    Text {index + 1} <span className="dash-muted">(line {region.line})</span>
                  </label>
                  <input
                    id={`${sourceId}-${region.id}`}
                    ref={(element) => {
                      if (element) textFields.current.set(region.id, element);
                      else textFields.current.delete(region.id);
                    }}
                    value={unescapeJsxText(region.text)}
                    onChange={(event) => editText(region, event.target.value)}
                  />
                </div>
              ))
            )}
          </fieldset>
          {props.kind === 'template' ? <TemplateVariables source={source} /> : null}
          <div className="dash-field dash-json dash-email-source">
            <label htmlFor={sourceId}>Source (TSX)</label>
            <textarea
              id={sourceId}
              ref={sourceArea}
              rows={18}
              wrap="off"
              spellCheck={false}
              aria-invalid={renderError ? true : undefined}
              aria-describedby={renderError ? `${sourceId}-error` : undefined}
              value={source}
              onChange={(event) => {
                setSource(event.target.value);
                setSaved(false);
              }}
            />
          </div>
          {renderError ? (
            <div id={`${sourceId}-error`} role="alert" className="dash-error dash-stack">
              <span>
                {position ? <strong>{`Line ${position.line}, column ${position.column}: `}</strong> : null}
                <span className="dash-email-error">{renderErrorText(renderError)}</span>
              </span>
              {position ? (
                <span>
                  <button type="button" onClick={() => goTo(position.line, position.column)}>
                    Go to line {position.line}
                  </button>
                </span>
              ) : null}
            </div>
          ) : null}
          <div className="dash-row">
            <button type="submit" className="gh-primary" disabled={props.saving}>
              {props.saving ? 'Saving…' : 'Save'}
            </button>
            {saved && !props.saving ? (
              <span role="status" className="dash-success">
                Saved.
              </span>
            ) : null}
          </div>
          <ErrorMessage error={props.saveError} />
        </form>
        <div className="dash-email-editor-preview dash-stack">
          <div className="dash-row">
            <h2 className="dash-email-preview-title">Preview</h2>
            <span role="status" className="dash-muted">
              {rendering ? 'Rendering…' : preview?.subject ? `Subject: ${preview.subject}` : ''}
            </span>
          </div>
          {preview ? <PreviewFrame html={preview.html} onTextClick={onPreviewClick} /> : <p className="dash-loading">Rendering…</p>}
        </div>
      </div>
      <AiChatPanel
        contextType={`email-${props.kind}`}
        subjectId={route.page === 'project' ? (route.item ?? '') : ''}
        source={source}
        onUseCode={(code) => {
          setSource(code);
          setSaved(false);
          sourceArea.current?.focus();
        }}
      />
    </>
  );
}

/** The rendered email in an iframe with no scripts; a click on a marked text names its region. */
function PreviewFrame({ html, onTextClick }: { html: string; onTextClick: (id: string) => void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const onClick = useRef(onTextClick);
  onClick.current = onTextClick;
  const marked = html.replace(
    /<\/head>|<body/i,
    (found) =>
      `<style>[data-editable-id]{cursor:text}[data-editable-id]:hover{outline:2px dashed #2563eb;outline-offset:2px}</style>${found}`,
  );
  return (
    <iframe
      ref={frame}
      title="Email preview"
      className="dash-email-frame"
      sandbox="allow-same-origin"
      srcDoc={marked}
      onLoad={() => {
        const document = frame.current?.contentDocument;
        document?.addEventListener('click', (event) => {
          const target = event.target as Element | null;
          const region = target?.closest?.('[data-editable-id]');
          event.preventDefault();
          if (region) onClick.current(region.getAttribute('data-editable-id') ?? '');
        });
      }}
    />
  );
}

function ThemePicker({ value, onChange }: { value: ThemeChoice; onChange: (value: ThemeChoice) => void }) {
  const { request } = useProjectScope();
  const { data } = api.useListEmailThemesSuspense({ request });
  const id = useId();
  const current = value === null ? 'selected' : value === false ? 'none' : value;
  return (
    <div className="dash-field">
      <label htmlFor={id}>Theme</label>
      <select
        id={id}
        value={current}
        onChange={(event) =>
          onChange(event.target.value === 'selected' ? null : event.target.value === 'none' ? false : event.target.value)
        }
      >
        <option value="selected">The project's theme</option>
        <option value="none">No theme</option>
        {data.themes.map((theme) => (
          <option key={theme.id} value={theme.id}>
            {theme.display_name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The variables a template reads (`variables.name`), given by send-email and by its `previewVariables` in previews. */
function TemplateVariables({ source }: { source: string }) {
  const names = [...new Set([...source.matchAll(/\bvariables\??\.([A-Za-z_$][\w$]*)/g)].map((match) => match[1]!))];
  return (
    <div className="dash-stack">
      <span className="dash-muted">Variables</span>
      {names.length === 0 ? (
        <p className="dash-muted">This template reads no variables.</p>
      ) : (
        <ul className="dash-row dash-email-variables" aria-label="Variables">
          {names.map((name) => (
            <li key={name}>
              <code>{`variables.${name}`}</code>
            </li>
          ))}
        </ul>
      )}
      <p className="dash-muted">
        Previews use the template's <code>previewVariables</code>; emails get the variables they are sent with, plus <code>user</code> and{' '}
        <code>project</code>.
      </p>
    </div>
  );
}

function BackToEmails() {
  const { projectId } = useProjectScope();
  return <Link href={paths.project(projectId, 'emails')}>All emails</Link>;
}

function sourceKind(kind: 'theme' | 'template' | 'draft'): 'theme' | 'template' {
  return kind === 'theme' ? 'theme' : 'template';
}

/** The `file:line:column` of an EMAIL_RENDERING_ERROR (compile errors name it). */
function errorPosition(error: unknown): { line: number; column: number } | null {
  const message = renderErrorText(error);
  const match = /(?:template|theme)\.tsx:(\d+):(\d+)/.exec(message);
  return match ? { line: Number(match[1]), column: Number(match[2]) } : null;
}

function renderErrorText(error: unknown): string {
  if (error instanceof KnownError && error.code === 'EMAIL_RENDERING_ERROR') {
    const details = error.details as { error?: unknown } | undefined;
    if (typeof details?.error === 'string') return details.error;
  }
  return errorText(error);
}

/** Text typed in a field as JSX text: the characters JSX would read as code are written as expressions. */
function escapeJsxText(text: string): string {
  return text.replace(/[{}<>]/g, (character) => `{'${character}'}`);
}

function unescapeJsxText(text: string): string {
  return text
    .replace(/\{'([{}<>])'\}/g, '$1')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'");
}
