/** A file an emitter produces, by path relative to the repository root. */
export type GeneratedFile = { path: string; content: string };
