/**
 * Editable markers of a preview (`POST /emails/render-email` with `editable_markers`): every static
 * text of a TSX source (a JSX text node, e.g. `Verify your email` in `<Text>Verify your email</Text>`)
 * becomes a region with an id, and the rendered HTML wraps what each region produced in
 * `<span data-editable-id="template:0">…</span>`, so an editor can map a click in the preview back to
 * the exact characters of the source (`start`/`end`) and replace them.
 *
 * How: before compiling, each text node is fenced by two expressions holding private-use characters
 * (`\uE000id\uE001` before, `\uE002` after), which leave the text's JSX meaning (entities, whitespace)
 * untouched; after rendering, a fence that sits in text content becomes the span, and a fence that
 * ended up where markup cannot go (an attribute, `<title>`, `<style>`, a string a component cut) is
 * removed. The source is parsed with TypeScript's own parser (esbuild exposes no syntax tree).
 */
import { createRequire } from 'node:module';
import type * as TypeScript from 'typescript';

export type EditableSource = 'template' | 'theme';

export type EditableRegion = {
  /** `template:<n>` or `theme:<n>`, the `data-editable-id` of its spans. */
  id: string;
  source: EditableSource;
  /** UTF-16 offsets of the text in the source (whitespace around it excluded): `source.slice(start, end)`. */
  start: number;
  end: number;
  /** 1-based line and column of `start`. */
  line: number;
  column: number;
  /** The text as written in the source. */
  text: string;
};

const open = '\uE000';
const close = '\uE001';
const end = '\uE002';

let typescript: typeof TypeScript | undefined;
function loadTypeScript(): typeof TypeScript {
  typescript ??= createRequire(import.meta.url)('typescript') as typeof TypeScript;
  return typescript;
}

/** The source with every static JSX text fenced by markers, and the regions found. */
export function markEditableText(source: string, kind: EditableSource): { source: string; regions: EditableRegion[] } {
  const ts = loadTypeScript();
  const file = ts.createSourceFile(`${kind}.tsx`, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const regions: EditableRegion[] = [];
  const visit = (node: TypeScript.Node): void => {
    if (node.kind === ts.SyntaxKind.JsxText) {
      const raw = source.slice(node.pos, node.end);
      const leading = raw.length - raw.trimStart().length;
      const text = raw.trim();
      if (text !== '') {
        const start = node.pos + leading;
        const { line, character } = file.getLineAndCharacterOfPosition(start);
        regions.push({
          id: `${kind}:${regions.length}`,
          source: kind,
          start,
          end: start + text.length,
          line: line + 1,
          column: character + 1,
          text,
        });
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let marked = source;
  for (const region of [...regions].reverse()) {
    marked = `${marked.slice(0, region.start)}{${JSON.stringify(open + region.id + close)}}${region.text}{${JSON.stringify(end)}}${marked.slice(region.end)}`;
  }
  return { source: marked, regions };
}

// No class spans an \uE000, so each match attempt stops at the next one: linear in the HTML, whatever
// marker characters a source prints itself (spanning them made a run of them quadratic).
const fenced = new RegExp(`${open}([^${open}${close}<]*)${close}((?:[^${open}${end}<]|<!-- -->)*)${end}`, 'g');
/** Every fence (an opening with its id, or a lone marker character), as a regular expression's source. */
export const editableMarkerPattern = `${open}[^${open}${close}]*${close}|[${open}${end}${close}]`;
const stray = new RegExp(editableMarkerPattern, 'g');
const rawTextElements = new Set(['title', 'style', 'script', 'textarea']);

/** The rendered HTML with fences in text content turned into spans and every other fence removed. */
export function applyEditableMarkers(html: string): string {
  let output = '';
  let text = '';
  // Once, not per raw-text element: lowering the whole HTML at each `<title>` was quadratic.
  const lowered = html.toLowerCase();
  const flushText = () => {
    output += text.replace(fenced, (_, id: string, inner: string) => `<span data-editable-id="${id}">${inner}</span>`).replace(stray, '');
    text = '';
  };
  let index = 0;
  while (index < html.length) {
    const next = html.indexOf('<', index);
    if (next === -1) {
      text += html.slice(index);
      break;
    }
    text += html.slice(index, next);
    if (html.startsWith('<!--', next)) {
      const stop = html.indexOf('-->', next);
      const after = stop === -1 ? html.length : stop + 3;
      text += html.slice(next, after);
      index = after;
      continue;
    }
    flushText();
    const stop = html.indexOf('>', next);
    const after = stop === -1 ? html.length : stop + 1;
    const tag = html.slice(next, after);
    output += tag.replace(stray, '');
    index = after;
    const name = /^<([a-zA-Z]+)/.exec(tag)?.[1]?.toLowerCase();
    if (name && rawTextElements.has(name) && !tag.endsWith('/>')) {
      const closing = lowered.indexOf(`</${name}`, index);
      const rawEnd = closing === -1 ? html.length : closing;
      output += html.slice(index, rawEnd).replace(stray, '');
      index = rawEnd;
    }
  }
  flushText();
  return output;
}

/** A string with every fence removed (the subject, the plain-text part). */
export function withoutEditableMarkers(value: string): string {
  return value.replace(stray, '');
}
