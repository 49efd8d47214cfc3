import { createHash } from 'node:crypto';
import type { Message } from 'esbuild';
import {
  applyEditableMarkers,
  type EditableRegion,
  editableMarkerPattern,
  markEditableText,
  withoutEditableMarkers,
} from './editable-markers.ts';
import type { Language } from '../../../../tenancy/project-language.ts';
import { themeLanguageProps } from '../theme-words.ts';
import { SandboxError, SandboxOutputLimitError, SandboxPool } from './sandbox-pool.ts';
import { sandboxRuntimeScript } from './sandbox-runtime.ts';

/** The modules an email source may import; anything else fails to compile. */
export const importableModules = ['react', 'react/jsx-runtime', '@react-email/components', '@gatehouse/emails', '@stackframe/emails'];

export type RenderLimits = {
  /** Wall-clock budget of one render inside the sandbox (loading React included). */
  timeoutMs: number;
  /** The sandbox's heap. */
  memoryBytes: number;
  /** How many renders run at once (each on its own worker thread). */
  size: number;
  /** The longest rendering (HTML, subject and variables schema, as JSON characters) that is accepted. */
  maxOutputLength: number;
};

export const defaultRenderLimits: RenderLimits = { timeoutMs: 1_000, memoryBytes: 64 * 1024 * 1024, size: 2, maxOutputLength: 1024 * 1024 };

/** What a template component is given (its props). */
export type EmailProps = {
  user: { id?: string; display_name: string | null; primary_email?: string | null };
  project: { id?: string; display_name: string };
  /** Absent: the template's `previewVariables` (or `{}`). */
  variables?: Record<string, unknown>;
};

export type RenderRequest = {
  templateSource: string;
  /** `null`: the template's markup as it is, with no theme around it. */
  themeSource: string | null;
  props: EmailProps;
  /** Given to the theme (`unsubscribeLink`), which shows it when there is one. */
  unsubscribeLink?: string;
  /** The recipient's language: the theme gets its `lang`, `dir` and `footer` words (theme-words.ts). English when absent. */
  language?: Language;
  /** Mark the static texts of these sources as editable regions (previews for an editor; see editable-markers.ts). */
  editable?: { template: boolean; theme: boolean };
  /** Check `props.variables` against the template's `variablesSchema` (the result's `variablesError`). */
  validateVariables?: boolean;
};

export type RenderedEmail = {
  html: string;
  text: string;
  /** The template's `subject` (a string, or a function of the props), or its `<Subject value>`. */
  subject: string | undefined;
  /** `Transactional` or `Marketing`, as the template declares it (`notificationCategory` or `<NotificationCategory>`). */
  notificationCategory: string | undefined;
  /** The template's `variablesSchema` (a JSON Schema), when it exports one. */
  variablesSchema: Record<string, unknown> | undefined;
  /** With `editable`: the regions of the marked sources, each wrapped in a `data-editable-id` span of `html`. */
  editableRegions?: EditableRegion[];
  /** With `validateVariables`: how the variables do not match the template's schema (undefined: they match). */
  variablesError?: string;
};

/**
 * A source that does not compile, throws, runs out of time or memory, or exports a `variablesSchema`
 * that is not a valid JSON Schema: the message names where.
 */
export class EmailSourceError extends Error {}

/** A rendering over the output limits (too long, or nested too deeply for the text part). */
export class EmailOutputTooLargeError extends EmailSourceError {}

type Compiled = { code: string } | { error: string };
const maxCachedBundles = 500;

/**
 * Renders owners' TSX email sources, which are untrusted code. Each source is compiled by esbuild
 * (bundles cached by the hash of the source) and run in a fresh QuickJS runtime (WebAssembly) with a
 * memory limit and an interrupt handler that stops it at its deadline: no network, no file system,
 * no host object (only strings go in and one JSON string comes out). The runtime is thrown away
 * after each render, so one render cannot see another.
 */
export class EmailRenderer {
  private readonly bundles = new Map<string, Compiled>();
  private pool: Promise<SandboxPool> | undefined;
  private runs = 0;

  constructor(private readonly limits: RenderLimits = defaultRenderLimits) {}

  /** How many compiled sources are kept. */
  get cachedBundles(): number {
    return this.bundles.size;
  }

  /** How many renders this renderer has started (what a batch's shape cache saves is measured by it). */
  get renderCount(): number {
    return this.runs;
  }

  async render(request: RenderRequest): Promise<RenderedEmail> {
    this.runs++;
    let [template, theme, pool] = await Promise.all([
      this.compile(request.templateSource, 'template'),
      request.themeSource === null ? Promise.resolve(null) : this.compile(request.themeSource, 'theme'),
      this.sandbox(),
    ]);
    // Marked sources are compiled only once the sources compile as written, so errors name the owner's positions.
    let editableRegions: EditableRegion[] | undefined;
    if (request.editable) {
      editableRegions = [];
      if (request.editable.template) {
        const marked = markEditableText(request.templateSource, 'template');
        template = await this.compile(marked.source, 'template');
        editableRegions.push(...marked.regions);
      }
      if (request.editable.theme && request.themeSource !== null) {
        const marked = markEditableText(request.themeSource, 'theme');
        theme = await this.compile(marked.source, 'theme');
        editableRegions.push(...marked.regions);
      }
    }
    // The output is limited, turned into text and checked against the schema on the render thread.
    const finish = {
      maxOutputLength: this.limits.maxOutputLength,
      markerPattern: editableRegions ? editableMarkerPattern : null,
      variables: request.validateVariables ? (request.props.variables ?? {}) : undefined,
    };
    let output: Awaited<ReturnType<SandboxPool['run']>>;
    try {
      output = await pool.run(request.props.project.id ?? '', driverScript(template, theme, request), finish);
    } catch (error) {
      if (error instanceof SandboxOutputLimitError) throw new EmailOutputTooLargeError(error.message);
      if (error instanceof SandboxError) throw new EmailSourceError(error.message);
      throw error;
    }
    // Linear in the output, which the render thread bounded.
    const body = editableRegions ? applyEditableMarkers(output.html) : output.html;
    const html = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">${body}`;
    return {
      html,
      text: output.text,
      subject: output.subject === null ? undefined : editableRegions ? withoutEditableMarkers(output.subject) : output.subject,
      notificationCategory: output.notificationCategory ?? undefined,
      variablesSchema: output.variablesSchema ?? undefined,
      ...(editableRegions ? { editableRegions } : {}),
      ...(output.variablesError !== null ? { variablesError: output.variablesError } : {}),
    };
  }

  /** Compiles a source to a CommonJS module (cached by hash); an EmailSourceError with the position when it does not compile. */
  async compile(source: string, kind: 'template' | 'theme'): Promise<string> {
    const key = createHash('sha256').update(kind).update('\0').update(source).digest('hex');
    let compiled = this.bundles.get(key);
    if (compiled) {
      // Refresh its place in the least-recently-used order.
      this.bundles.delete(key);
    } else {
      compiled = await compileSource(source, kind);
      if (this.bundles.size >= maxCachedBundles) this.bundles.delete(this.bundles.keys().next().value as string);
    }
    this.bundles.set(key, compiled);
    if ('error' in compiled) throw new EmailSourceError(compiled.error);
    return compiled.code;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await (await pool).close();
  }

  private sandbox(): Promise<SandboxPool> {
    this.pool ??= sandboxRuntimeScript().then((runtimeScript) => new SandboxPool({ runtimeScript, ...this.limits }));
    return this.pool;
  }
}

async function compileSource(source: string, kind: 'template' | 'theme'): Promise<Compiled> {
  // esbuild loads on the first email compiled, not at start-up.
  const { build } = await import('esbuild');
  try {
    const result = await build({
      stdin: { contents: source, loader: 'tsx', sourcefile: `${kind}.tsx` },
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'neutral',
      target: 'es2020',
      jsx: 'automatic',
      external: importableModules,
      logLevel: 'silent',
    });
    return { code: result.outputFiles[0]!.text };
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors;
    if (!messages?.length) return { error: `${kind}.tsx: ${error instanceof Error ? error.message : String(error)}` };
    return { error: messages.map(describeMessage).join('\n') };
  }
}

function describeMessage(message: Message): string {
  const where = message.location ? `${message.location.file}:${message.location.line}:${message.location.column + 1}` : 'source';
  const text = /^Could not resolve "/.test(message.text)
    ? `${message.text} (only ${importableModules.filter((name) => name !== 'react/jsx-runtime').join(', ')} can be imported)`
    : message.text;
  return `${where}: ${text}`;
}

/**
 * The script run after the runtime: loads the compiled modules with a `require` that knows only the
 * importable modules, renders the template (inside the theme) and returns one JSON string.
 */
function driverScript(template: string, theme: string | null, request: RenderRequest): string {
  return `(() => {
  const load = (code) => {
    const module = { exports: {} };
    const require = (id) => {
      if (Object.prototype.hasOwnProperty.call(__modules, id)) return __modules[id];
      throw new Error('Cannot import ' + id);
    };
    new Function('module', 'exports', 'require', code)(module, module.exports, require);
    return module.exports;
  };
  const React = __modules.react;
  const template = load(${JSON.stringify(template)});
  const Template = template.EmailTemplate ?? template.default;
  if (typeof Template !== 'function') throw new TypeError('The template must export its component as EmailTemplate.');
  const given = ${JSON.stringify(request.props)};
  const props = { ...given, variables: given.variables ?? template.previewVariables ?? {} };
  let element = React.createElement(Template, props);
  const themeCode = ${JSON.stringify(theme)};
  if (themeCode !== null) {
    const theme = load(themeCode);
    const Theme = theme.EmailTheme ?? theme.default;
    if (typeof Theme !== 'function') throw new TypeError('The theme must export its component as EmailTheme.');
    const language = ${JSON.stringify(themeLanguageProps(request.language ?? 'en'))};
    element = React.createElement(Theme, { ...language, unsubscribeLink: ${JSON.stringify(request.unsubscribeLink ?? null)} ?? undefined }, element);
  }
  const html = __renderToStaticMarkup(element);
  const subject = typeof template.subject === 'function' ? template.subject(props) : (template.subject ?? __collected.subject);
  const category = template.notificationCategory ?? __collected.notificationCategory;
  const schema = template.variablesSchema;
  return JSON.stringify({
    html,
    subject: subject === undefined || subject === null ? null : String(subject),
    notificationCategory: category === undefined || category === null ? null : String(category),
    variablesSchema: schema && typeof schema === 'object' ? schema : null,
  });
})()`;
}
