import { DOMParser } from '@xmldom/xmldom';

/**
 * The root element of a well-formed XML text, or null when the parser found any error (a warning is
 * not one). Callers refuse a DOCTYPE before this, so no entity is ever expanded.
 */
export function wellFormedRoot(xml: string): Element | null {
  const errors: string[] = [];
  let document: Document | undefined;
  try {
    document = new DOMParser({
      errorHandler: (level: string, message: unknown) => {
        if (level !== 'warning') errors.push(String(message));
      },
    }).parseFromString(xml, 'text/xml') as unknown as Document;
  } catch {
    return null;
  }
  return errors.length > 0 ? null : (document?.documentElement ?? null);
}
