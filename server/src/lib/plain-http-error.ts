/**
 * A non-catalogued error the protocol answers in plain text (e.g. "client user deletion is not
 * enabled"); the error handler sends `statusCode` and the message as text/plain.
 */
export class PlainHttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'PlainHttpError';
  }
}
