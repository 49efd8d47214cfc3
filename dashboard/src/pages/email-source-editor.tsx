import type { EditableRegion, OperationBody, Schema } from '@gatehouse/client';
import { type ReactNode, useId, useRef, useState } from 'react';
import { AiChatPanel } from '../ai-chat-panel.tsx';
import { useRoute } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ErrorMessage, PageHeader, TextField } from '../ui.tsx';
import {
  BackToEmails,
  errorPosition,
  escapeJsxText,
  PreviewFrame,
  renderErrorText,
  sourceKind,
  TemplateVariables,
  ThemePicker,
  unescapeJsxText,
} from './email-source-parts.tsx';
import { useEmailPreview } from './use-email-preview.ts';

type ThemeChoice = Schema<'ThemeChoice'>;
type RenderBody = OperationBody<'renderEmail'>;

/**
 * A TSX source with its live preview: the source is rendered (debounced) by render-email with
 * editable markers; every static text of the source is listed as a field, and clicking a text in
 * the preview moves to its field, so the owner edits the words without touching the code. A source
 * that fails shows EMAIL_RENDERING_ERROR with its line and column (a button selects that line).
 */
export function SourceEditor(props: {
  kind: 'theme' | 'template' | 'draft';
  title: string;
  displayName: string;
  source: string;
  themePicker?: { value: ThemeChoice; onChange: (value: ThemeChoice) => void };
  previewBody: (source: string) => RenderBody;
  saving: boolean;
  saveError: unknown;
  onSave: (changes: { displayName: string; source: string }, done: () => void) => void;
  /** The editor's delete (or reset) button. */
  actions?: ReactNode;
}) {
  const { request } = useProjectScope();
  const route = useRoute();
  const [displayName, setDisplayName] = useState(props.displayName);
  const [source, setSource] = useState(props.source);
  const [saved, setSaved] = useState(false);
  const sourceArea = useRef<HTMLTextAreaElement>(null);
  const textFields = useRef(new Map<string, HTMLInputElement>());
  const sourceId = useId();
  const { t } = useDashboardTranslation();
  const { preview, setPreview, renderError, rendering } = useEmailPreview(request, source, props.previewBody(source));

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
        {props.actions}
      </PageHeader>
      <div className="dash-email-editor">
        <form
          className="dash-email-editor-source dash-stack"
          onSubmit={(event) => {
            event.preventDefault();
            props.onSave({ displayName: displayName.trim() || props.displayName, source }, () => setSaved(true));
          }}
        >
          <TextField
            label={t('emailEditor.name')}
            name="display-name"
            value={displayName}
            onChange={(event) => setDisplayName(event.target.value)}
          />
          {props.themePicker ? <ThemePicker {...props.themePicker} /> : null}
          <fieldset className="dash-fieldset dash-email-texts">
            <legend>{t('emailEditor.texts')}</legend>
            {regions === null ? (
              <p className="dash-muted" role="status">
                {renderError ? t('emailEditor.fixSource') : t('emailEditor.readingTexts')}
              </p>
            ) : regions.length === 0 ? (
              <p className="dash-muted">{t('emailEditor.noText')}</p>
            ) : (
              regions.map((region, index) => (
                <div className="dash-field" key={region.id}>
                  <label htmlFor={`${sourceId}-${region.id}`}>
                    {t('emailEditor.textNumber', { n: index + 1 })}{' '}
                    <span className="dash-muted">{t('emailEditor.lineNumber', { line: region.line })}</span>
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
            <label htmlFor={sourceId}>{t('emailEditor.source')}</label>
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
                {position ? <strong>{`${t('emailEditor.position', { line: position.line, column: position.column })} `}</strong> : null}
                <span className="dash-email-error">{renderErrorText(renderError)}</span>
              </span>
              {position ? (
                <span>
                  <button type="button" onClick={() => goTo(position.line, position.column)}>
                    {t('emailEditor.goToLine', { line: position.line })}
                  </button>
                </span>
              ) : null}
            </div>
          ) : null}
          <div className="dash-row">
            <button type="submit" className="gh-primary" disabled={props.saving}>
              {props.saving ? t('settings.saving') : t('settings.save')}
            </button>
            {saved && !props.saving ? (
              <span role="status" className="dash-success">
                {t('settings.saved')}
              </span>
            ) : null}
          </div>
          <ErrorMessage error={props.saveError} />
        </form>
        <div className="dash-email-editor-preview dash-stack">
          <div className="dash-row">
            <h2 className="dash-email-preview-title">{t('emailEditor.preview')}</h2>
            <span role="status" className="dash-muted">
              {rendering ? t('emailEditor.rendering') : preview?.subject ? t('emailEditor.subject', { subject: preview.subject }) : ''}
            </span>
          </div>
          {preview ? (
            <PreviewFrame html={preview.html} onTextClick={onPreviewClick} />
          ) : (
            <p className="dash-loading">{t('emailEditor.rendering')}</p>
          )}
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
