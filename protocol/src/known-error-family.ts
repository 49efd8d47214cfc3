import type { KnownError } from './known-error.ts';

/** An abstract catalogue family such as InvalidAccessTokenError (never sent, only subclassed). */
export type KnownErrorFamily = (abstract new (...args: never[]) => KnownError) & { readonly memberCodes: readonly string[] };

/**
 * Whether a code on the wire belongs to a family, read from the codes the generated family class
 * lists (so the code-to-class table need not be loaded for it).
 */
export function isCodeInFamily(code: string | undefined, family: KnownErrorFamily): boolean {
  return code !== undefined && Object.hasOwn(family, 'memberCodes') && family.memberCodes.includes(code);
}
