import { ConnectionError } from '@gatehouse/client';
import { KnownError } from '@gatehouse/protocol/errors';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { Component, type ErrorInfo, type InputHTMLAttributes, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { type Translate, useDashboardTranslation } from './i18n/dashboard-i18n.ts';
import { PageChunkError } from './lazy-page.ts';
import { translatedRefusal } from './refusal-reasons.ts';

/**
 * The message a person reads for an error of the API: the catalogue's message (Stack's English, as on the
 * wire) or the server's plain text; the dashboard's own words in the active language when `t` is given, and
 * then also a refusal whose reason the owner acts on (`refusal-reasons.ts`).
 */
export function errorText(error: unknown, t?: Translate): string {
  const refusal = t ? translatedRefusal(error, t) : undefined;
  if (refusal) return refusal;
  if (error instanceof KnownError) return error.message;
  if (error instanceof PageChunkError) return t ? t('error.pageChunk') : error.message;
  if (error instanceof ConnectionError)
    return t ? t('error.unreachable', { reason: error.message }) : `The platform cannot be reached: ${error.message}`;
  if (error instanceof Error && error.message) return error.message;
  return t ? t('error.generic') : 'Something went wrong. Try again.';
}

export function ErrorMessage({ error }: { error: unknown }) {
  const { t } = useDashboardTranslation();
  if (!error) return null;
  return (
    <p role="alert" className="dash-error">
      {errorText(error, t)}
    </p>
  );
}

export function Loading({ label }: { label?: string }) {
  const { t } = useDashboardTranslation();
  return (
    <p role="status" className="dash-loading">
      {label ?? t('common.loading')}
    </p>
  );
}

/** A page's heading and actions. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="dash-page-header">
      <h1>{title}</h1>
      {children ? <div className="dash-row">{children}</div> : null}
    </div>
  );
}

export function Section({ title, children, description }: { title: string; children: ReactNode; description?: ReactNode }) {
  const id = useId();
  return (
    <section className="dash-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {description ? <p className="dash-muted">{description}</p> : null}
      {children}
    </section>
  );
}

/** A labelled input; its label names it for assistive technology and tests. */
export function TextField({
  label,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; value: string; name: string }) {
  const id = useId();
  return (
    <div className="dash-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint ? (
        <span id={`${id}-hint`} className="dash-muted">
          {hint}
        </span>
      ) : null}
    </div>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="dash-check">
      <input id={id} type="checkbox" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/**
 * A table's sideways scroller. When the table is wider than the page it scrolls inside this box, which
 * then takes the keyboard's focus (arrow keys scroll it; a table of plain text has no other stop that
 * would) and is named after the table; when it fits it is no Tab stop at all.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  const { t } = useDashboardTranslation();
  return (
    <div
      ref={box}
      className="dash-table-wrap"
      {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': t('common.scrollsSideways', { label }) } : {})}
    >
      {children}
    </div>
  );
}

/**
 * A modal confirmation (the native dialog: focus stays inside, Escape closes it). `confirmText`,
 * when given, must be typed before the action is allowed (deleting a project).
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  busy?: boolean;
  canConfirm?: boolean;
  /** `danger` (default) for destructive actions. */
  tone?: 'danger' | 'primary';
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { t } = useDashboardTranslation();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) element.showModal();
    if (!props.open && element.open) element.close();
  }, [props.open]);
  return (
    <dialog ref={dialog} className="dash-dialog" aria-labelledby={titleId} onClose={props.onClose}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
      <div className="dash-row dash-dialog-actions">
        <button type="button" onClick={props.onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className={props.tone === 'primary' ? 'gh-primary' : 'gh-danger'}
          disabled={props.busy || props.canConfirm === false}
          onClick={props.onConfirm}
        >
          {props.busy ? t('common.working') : props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** Catches what a page threw while loading (a failed query) and offers to try again. */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const { reset } = useQueryErrorResetBoundary();
  return <ErrorBoundary onReset={reset}>{children}</ErrorBoundary>;
}

class ErrorBoundary extends Component<{ children: ReactNode; onReset: () => void }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <PageFailed
        error={this.state.error}
        onRetry={() => {
          this.props.onReset();
          this.setState({ error: null });
        }}
      />
    );
  }
}

function PageFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useDashboardTranslation();
  return (
    <div className="dash-panel" role="alert">
      <h2>{t('error.pageFailed')}</h2>
      <p>{errorText(error, t)}</p>
      <button type="button" onClick={onRetry}>
        {t('common.tryAgain')}
      </button>
    </div>
  );
}

export function formatDate(millis: number | null | undefined): string {
  if (millis === null || millis === undefined) return '—';
  return new Date(millis).toISOString().replace('T', ' ').slice(0, 16);
}

/** What a query gives a panel: its answer, or why there is none yet, and a way to ask again. */
export type PanelQuery<T> = { data: T | undefined; isPending: boolean; error: unknown; refetch: () => unknown };

/** A query's loading and error states around what it draws (each panel on its own: one failing query leaves the others). */
export function QueryState<T>({ query, what, children }: { query: PanelQuery<T>; what: string; children: ReactNode }) {
  const { t } = useDashboardTranslation();
  if (query.data !== undefined) return <>{children}</>;
  if (query.error) {
    return (
      <div role="alert" className="dash-error dash-stack">
        <span>{t('common.couldNotLoad', { what, reason: errorText(query.error, t) })}</span>
        <span>
          <button type="button" onClick={() => void query.refetch()}>
            {t('common.tryAgain')}
          </button>
        </span>
      </div>
    );
  }
  return <Loading label={t('common.loadingWhat', { what })} />;
}
