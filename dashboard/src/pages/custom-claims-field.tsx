import { KnownError } from '@gatehouse/protocol/errors';
import { useId } from 'react';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';

/** A custom claims template: claim name → CEL expression (docs/guide/custom-claims.md). */
export type ClaimsTemplate = Record<string, string>;

type Position = { offset: number; line: number; column: number };
type Refusal = { claim: string | null; position: Position | null };

/** The template as the editor shows it: pretty JSON, or nothing when there is no claim. */
export function claimsTemplateText(template: ClaimsTemplate | undefined): string {
  return template && Object.keys(template).length > 0 ? JSON.stringify(template, null, 2) : '';
}

/**
 * The typed text as a template, or why it is not one. Only the shape is checked here (JSON, an object of strings);
 * names and expressions are the server's to judge, so its catalogued error is the one the owner sees for those.
 * The problem is in the active language when `t` is given (as `errorText`'s words), else in English.
 */
export function parseClaimsTemplate(text: string, t?: Translate): { template: ClaimsTemplate } | { problem: string } {
  if (text.trim() === '') return { template: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: t ? t('claims.notJson') : 'Custom claims are not valid JSON.' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { problem: t ? t('claims.notObject') : 'Custom claims must be a JSON object of claim names to CEL expressions.' };
  }
  const notText = Object.entries(parsed).find(([, expression]) => typeof expression !== 'string');
  if (notText) {
    const claim = notText[0];
    return { problem: t ? t('claims.notString', { claim }) : `Custom claim ${claim}: the CEL expression must be a JSON string.` };
  }
  return { template: parsed as ClaimsTemplate };
}

/** The claim and position of a refused template (CUSTOM_CLAIMS_TEMPLATE_INVALID's details), when the error is one. */
export function claimsRefusal(error: unknown): Refusal | null {
  if (!(error instanceof KnownError) || error.code !== 'CUSTOM_CLAIMS_TEMPLATE_INVALID') return null;
  const details = error.details as Partial<Refusal> | undefined;
  return { claim: details?.claim ?? null, position: details?.position ?? null };
}

/**
 * The template editor: a JSON textarea (the same shape the API and the guide use, so examples paste in as they are).
 * When the server refuses an expression, the refused line of that claim's expression is shown with a caret under
 * the column it named.
 */
export function CustomClaimsField(props: { value: string; onChange: (text: string) => void; error: unknown }) {
  const id = useId();
  const { t } = useDashboardTranslation();
  const refusal = claimsRefusal(props.error);
  const parsed = parseClaimsTemplate(props.value, t);
  const expression = refusal?.claim && 'template' in parsed ? parsed.template[refusal.claim] : undefined;
  const caret = refusal?.position && expression !== undefined ? { expression, position: refusal.position } : null;
  return (
    <div className="dash-field dash-json">
      <label htmlFor={id}>{t('claims.title')}</label>
      <textarea
        id={id}
        rows={4}
        spellCheck={false}
        placeholder={'{ "plan": "user.client_read_only_metadata.plan" }'}
        aria-invalid={refusal ? true : undefined}
        aria-describedby={`${id}-hint${caret ? ` ${id}-caret` : ''}`}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
      <span id={`${id}-hint`} className="dash-muted">
        {t('claims.hint')}
      </span>
      {caret ? (
        <div id={`${id}-caret`}>
          <span className="dash-error">
            {t('claims.refusedAt', { claim: refusal?.claim, line: caret.position.line, column: caret.position.column })}
          </span>
          <pre className="dash-code" data-testid="custom-claims-caret">
            {`${caret.expression.split('\n')[caret.position.line - 1] ?? ''}\n${' '.repeat(Math.max(0, caret.position.column - 1))}^`}
          </pre>
        </div>
      ) : null}
    </div>
  );
}
