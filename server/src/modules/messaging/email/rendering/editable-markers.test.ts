import { describe, expect, it } from 'vitest';
import { applyEditableMarkers, markEditableText, withoutEditableMarkers } from './editable-markers.ts';

/** The fences around texts: spans in text content, removed wherever markup cannot go. */
describe('editable markers', () => {
  const fence = (id: string, text: string) => `\uE000${id}\uE001${text}\uE002`;

  it('wraps a fenced text in its span, across the comments React puts between text nodes', () => {
    expect(applyEditableMarkers(`<p>${fence('template:0', 'Hi<!-- --> there')}<!-- -->John</p>`)).toBe(
      '<p><span data-editable-id="template:0">Hi<!-- --> there</span><!-- -->John</p>',
    );
  });

  it('removes fences inside attributes, title and style, and unmatched ones', () => {
    const html = `<head><title>${fence('theme:0', 'T')}</title><style>a>b{}${fence('theme:1', 'x')}</style></head><a title="${fence('template:1', 'in attr')}">${'\uE000template:2\uE001cut short'}</a>`;
    expect(applyEditableMarkers(html)).toBe('<head><title>T</title><style>a>b{}x</style></head><a title="in attr">cut short</a>');
    expect(withoutEditableMarkers(fence('template:3', 'Subject'))).toBe('Subject');
  });

  it('finds JSX texts, not strings, attributes or whitespace', () => {
    const source = `export const subject = 'not a text';\nexport function EmailTemplate() {\n  return <div title="no">\n    <b>One</b>  two {'three'}\n  </div>;\n}`;
    const { source: marked, regions } = markEditableText(source, 'template');
    expect(regions.map((region) => [region.text, region.line, region.column])).toEqual([
      ['One', 4, 8],
      ['two', 4, 17],
    ]);
    expect(marked).toContain(`<b>{"\uE000template:0\uE001"}One{"\uE002"}</b>  {"\uE000template:1\uE001"}two{"\uE002"} {'three'}`);
  });
});
