import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id parameters: 19 MiB, 2 passes, 1 lane. The native binding runs off the event loop. */
// `algorithm: 2` is Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax).
const argon2Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, argon2Options);

export const isBcryptHash = (value: string): boolean => /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/.test(value);

/** Verifies against an argon2id hash or an imported bcrypt hash. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  if (isBcryptHash(storedHash)) {
    // Loaded at the first imported bcrypt hash only (issue #20: idle memory).
    const { compare } = await import('@node-rs/bcrypt');
    return compare(password, storedHash);
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** True when a successful sign-in should replace the stored hash (imported bcrypt, or weaker argon2). */
export const needsRehash = (storedHash: string): boolean => !storedHash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$');

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of a real verification when there is no user (unknown email), so a sign-in with
 * an unknown email and one with a wrong password cannot be told apart by timing.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('gatehouse-dummy-password-for-timing');
  await verify(await dummyHash, password);
  return false;
}
