import { headerText } from './email-kinds.ts';

/** What a send-email row's template may know of its recipient. */
export type Recipient = { id: string; display_name: string | null; primary_email: string; link: string | undefined };
/** A rendered email. */
export type RenderedEmail = { subject: string; html: string; text: string };

const recipientFields = ['id', 'display_name', 'primary_email', 'link'] as const;
const hole = (field: string) => `\u0000${field}\u0000`;
/**
 * A value as React's renderer writes it into the HTML (`&#x27;` for a quote, where escape-html writes
 * `&#39;`): not an escaping of our own, a matcher that must find the renderer's bytes exactly.
 */
const asReactWritesIt = (value: string) =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[character] as string);

/** The rendering with each of the recipient's (placeholder) values replaced by a hole. */
export function holesOf(rendered: RenderedEmail, recipient: Recipient): RenderedEmail {
  const shape = { ...rendered };
  for (const field of recipientFields) {
    const value = recipient[field];
    if (!value) continue;
    shape.html = shape.html.replaceAll(asReactWritesIt(value), hole(field));
    shape.text = shape.text.replaceAll(value, hole(field));
    shape.subject = shape.subject.replaceAll(value, hole(field));
  }
  return shape;
}

/** Whether a shape has no hole at all: every recipient gets the very same email. */
export const hasNoHoles = (shape: RenderedEmail): boolean => !`${shape.subject}${shape.html}${shape.text}`.includes('\u0000');

/** The rendering of a recipient: the holes filled with their values. */
export function fillIn(shape: RenderedEmail, recipient: Recipient): RenderedEmail {
  if (hasNoHoles(shape)) return { ...shape, subject: headerText(shape.subject) };
  const filled = { ...shape };
  for (const field of recipientFields) {
    const value = recipient[field] ?? '';
    filled.html = filled.html.replaceAll(hole(field), asReactWritesIt(value));
    filled.text = filled.text.replaceAll(hole(field), value);
    filled.subject = filled.subject.replaceAll(hole(field), value);
  }
  return { ...filled, subject: headerText(filled.subject) };
}
