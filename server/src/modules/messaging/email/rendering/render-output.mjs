// The render's output, checked and finished on the render thread (render-worker.mjs): its size, the
// plain-text part and the variables' schema, so that nothing an owner's source produces is processed
// on the server's event loop (a million links took seconds to turn into text there).
import { convert } from 'html-to-text';
import { Parser } from 'htmlparser2';
import { checkVariables } from './variables-schema.mjs';

/** An output over a limit: the renderer answers EMAIL_RENDERED_OUTPUT_TOO_LARGE. */
export class OutputLimitError extends Error {}

/**
 * The deepest nesting of elements accepted. html-to-text walks the document recursively (about
 * 20 000 levels overflowed the render thread's stack, after seconds); an email nests a few dozen.
 */
export const maxNestingDepth = 1_000;

/** Throws OutputLimitError when elements nest deeper than maxNestingDepth (htmlparser2's streaming parser: implied end tags count as HTML says). */
function checkNesting(html) {
  let depth = 0;
  const parser = new Parser(
    {
      onopentag() {
        depth += 1;
        if (depth > maxNestingDepth)
          throw new OutputLimitError(
            `The rendered HTML nests elements more than ${maxNestingDepth} levels deep, too deeply to turn into text.`,
          );
      },
      onclosetag() {
        depth -= 1;
      },
    },
    { decodeEntities: false },
  );
  parser.end(html);
}

/** The plain-text part: links written out once, headings as written, no images. */
const textOptions = {
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'img', format: 'skip' },
  ],
};

/**
 * `output`: the driver's JSON string ({ html, subject, notificationCategory, variablesSchema }).
 * `options`: `maxOutputLength`; `markerPattern`, the editable markers to remove from the text part
 * (or null); `variables`, checked against the schema when given (the schema is compiled either way,
 * so a template with an invalid schema does not render).
 */
export function finishRender(output, { maxOutputLength, markerPattern, variables }) {
  if (output.length > maxOutputLength)
    throw new OutputLimitError(
      `The rendered email is ${output.length} characters long (HTML, subject and variables schema), more than the limit of ${maxOutputLength}.`,
    );
  const parsed = JSON.parse(output);
  checkNesting(parsed.html);
  const text = convert(markerPattern ? parsed.html.replace(new RegExp(markerPattern, 'g'), '') : parsed.html, textOptions);
  // Throws InvalidSchemaError (the source's fault, like any other failure of its render).
  const variablesError = parsed.variablesSchema ? checkVariables(parsed.variablesSchema, variables) : null;
  return { ...parsed, text, variablesError };
}
