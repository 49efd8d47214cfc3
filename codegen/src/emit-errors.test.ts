import { describe, expect, it } from 'vitest';
import { emitErrors, readCatalogue } from './emit-errors.ts';
import { tinySpec } from './testing/tiny-spec.ts';

describe('emitErrors', () => {
  const files = emitErrors(tinySpec());
  const byPath = new Map(files.map((file) => [file.path, file.content]));

  it('reads the catalogue from the schemas tagged with x-error-code', () => {
    expect(readCatalogue(tinySpec()).map(({ code, abstract, status, hasDetails }) => ({ code, abstract, status, hasDetails }))).toEqual([
      { code: 'CREDENTIALS_ERROR', abstract: true, status: undefined, hasDetails: false },
      { code: 'EMAIL_PASSWORD_MISMATCH', abstract: false, status: 400, hasDetails: false },
      { code: 'SCHEMA_ERROR', abstract: false, status: 400, hasDetails: true },
      { code: 'USER_NOT_FOUND', abstract: false, status: 404, hasDetails: false },
    ]);
  });

  it('writes one module per class, the index and the code-to-class table', () => {
    expect([...byPath.keys()].sort()).toEqual([
      'protocol/src/generated/error-classes.ts',
      'protocol/src/generated/errors.ts',
      'protocol/src/generated/errors/credentials-error.ts',
      'protocol/src/generated/errors/email-password-mismatch-error.ts',
      'protocol/src/generated/errors/schema-error.ts',
      'protocol/src/generated/errors/user-not-found-error.ts',
    ]);
  });

  it('makes a family abstract with its members, and a member extends its family', () => {
    const family = byPath.get('protocol/src/generated/errors/credentials-error.ts') ?? '';
    expect(family).toContain('export abstract class CredentialsError extends KnownError {');
    expect(family).toContain('static readonly memberCodes: readonly string[] = ["EMAIL_PASSWORD_MISMATCH"];');
    const member = byPath.get('protocol/src/generated/errors/email-password-mismatch-error.ts') ?? '';
    expect(member).toContain("import { CredentialsError } from './credentials-error.ts';");
    expect(member).toContain('export class EmailPasswordMismatchError extends CredentialsError {');
    expect(member).toContain('static readonly status = 400;');
    expect(member).toContain('static readonly defaultMessage = "Wrong e-mail or password.";');
    expect(member).toContain('constructor(message?: string)');
  });

  it('types details from the spec and falls back to the code as the message', () => {
    const schemaError = byPath.get('protocol/src/generated/errors/schema-error.ts') ?? '';
    expect(schemaError).toContain("declare readonly details: components['schemas']['SchemaError']['details'];");
    expect(schemaError).toContain("constructor(details: components['schemas']['SchemaError']['details'], message?: string)");
    expect(schemaError).toContain('static readonly defaultMessage = "SCHEMA_ERROR";');
  });

  it('unions the errors each operation declares and maps every concrete code to its class', () => {
    const index = byPath.get('protocol/src/generated/errors.ts') ?? '';
    expect(index).toContain('  getUser: UserNotFoundError;');
    expect(index).toContain('  signInWithPassword: EmailPasswordMismatchError | SchemaError;');
    expect(index).toContain('export type KnownErrorCode =\n  | "EMAIL_PASSWORD_MISMATCH"\n  | "SCHEMA_ERROR"\n  | "USER_NOT_FOUND";');
    const table = byPath.get('protocol/src/generated/error-classes.ts') ?? '';
    expect(table).toContain('  USER_NOT_FOUND: UserNotFoundError,');
    expect(table).not.toContain('CREDENTIALS_ERROR:');
  });

  it('refuses an error whose parent is not in the catalogue', () => {
    const spec = tinySpec();
    const schema = spec.components.schemas.UserNotFoundError;
    if (schema) schema['x-error-parent'] = 'NO_SUCH_FAMILY';
    expect(() => emitErrors(spec)).toThrow('USER_NOT_FOUND: unknown parent NO_SUCH_FAMILY');
  });
});
