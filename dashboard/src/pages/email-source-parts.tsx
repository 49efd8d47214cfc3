import type { Schema } from '@gatehouse/client';
import { KnownError } from '@gatehouse/protocol/errors';
import { api, Link } from '@gatehouse/react';
import { useId, useRef } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { errorText } from '../ui.tsx';

type ThemeChoice = Schema<'ThemeChoice'>;

/** The rendered email in an iframe with no scripts; a click on a marked text names its region. */
export function PreviewFrame({ html, onTextClick }: { html: string; onTextClick: (id: string) => void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const onClick = useRef(onTextClick);
  const { t } = useDashboardTranslation();
  onClick.current = onTextClick;
  const marked = html.replace(
    /<\/head>|<body/i,
    (found) =>
      `<style>[data-editable-id]{cursor:text}[data-editable-id]:hover{outline:2px dashed #2563eb;outline-offset:2px}</style>${found}`,
  );
  return (
    <iframe
      ref={frame}
      title={t('emailEditor.previewFrame')}
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

export function ThemePicker({ value, onChange }: { value: ThemeChoice; onChange: (value: ThemeChoice) => void }) {
  const { request } = useProjectScope();
  const { data } = api.useListEmailThemesSuspense({ request });
  const id = useId();
  const current = value === null ? 'selected' : value === false ? 'none' : value;
  const { t } = useDashboardTranslation();
  return (
    <div className="dash-field">
      <label htmlFor={id}>{t('emailEditor.theme')}</label>
      <select
        id={id}
        value={current}
        onChange={(event) =>
          onChange(event.target.value === 'selected' ? null : event.target.value === 'none' ? false : event.target.value)
        }
      >
        <option value="selected">{t('emailEditor.projectTheme')}</option>
        <option value="none">{t('emailEditor.noTheme')}</option>
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
export function TemplateVariables({ source }: { source: string }) {
  const { t } = useDashboardTranslation();
  const names = [...new Set([...source.matchAll(/\bvariables\??\.([A-Za-z_$][\w$]*)/g)].map((match) => match[1]!))];
  return (
    <div className="dash-stack">
      <span className="dash-muted">{t('emailEditor.variables')}</span>
      {names.length === 0 ? (
        <p className="dash-muted">{t('emailEditor.noVariables')}</p>
      ) : (
        <ul className="dash-row dash-email-variables" aria-label={t('emailEditor.variables')}>
          {names.map((name) => (
            <li key={name}>
              <code>{`variables.${name}`}</code>
            </li>
          ))}
        </ul>
      )}
      <p className="dash-muted">{t('emailEditor.variablesExplained', { preview: 'previewVariables', user: 'user', project: 'project' })}</p>
    </div>
  );
}

export function BackToEmails() {
  const { projectId } = useProjectScope();
  const { t } = useDashboardTranslation();
  return <Link href={paths.project(projectId, 'emails')}>{t('emailEditor.allEmails')}</Link>;
}

export function sourceKind(kind: 'theme' | 'template' | 'draft'): 'theme' | 'template' {
  return kind === 'theme' ? 'theme' : 'template';
}

/** The `file:line:column` of an EMAIL_RENDERING_ERROR (compile errors name it). */
export function errorPosition(error: unknown): { line: number; column: number } | null {
  const message = renderErrorText(error);
  const match = /(?:template|theme)\.tsx:(\d+):(\d+)/.exec(message);
  return match ? { line: Number(match[1]), column: Number(match[2]) } : null;
}

export function renderErrorText(error: unknown): string {
  if (error instanceof KnownError && error.code === 'EMAIL_RENDERING_ERROR') {
    const details = error.details as { error?: unknown } | undefined;
    if (typeof details?.error === 'string') return details.error;
  }
  return errorText(error);
}

/** Text typed in a field as JSX text: the characters JSX would read as code are written as expressions. */
export function escapeJsxText(text: string): string {
  return text.replace(/[{}<>]/g, (character) => `{'${character}'}`);
}

export function unescapeJsxText(text: string): string {
  return text
    .replace(/\{'([{}<>])'\}/g, '$1')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'");
}
