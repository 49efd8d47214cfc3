import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { emitReactHooks } from './emit-react-hooks.ts';
import { splitHooks } from './split-hooks.ts';
import { tinySpec } from './testing/tiny-spec.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('emitReactHooks (orval through the project mutator, then split)', () => {
  it('writes one hooks module per operation, an index re-exporting them and protocol type aliases', async () => {
    const files = await emitReactHooks(tinySpec(), repoRoot);
    const byPath = new Map(files.map((file) => [file.path.replace('react/src/generated/', ''), file.content]));
    expect([...byPath.keys()]).toEqual(['hooks.schemas.ts', 'hooks.ts', 'hooks/get-user.ts', 'hooks/sign-in-with-password.ts']);

    const getUser = byPath.get('hooks/get-user.ts') ?? '';
    expect(getUser).toContain("import { apiMutator } from '../../api-mutator';");
    expect(getUser).toContain('export const getGetUserUrl = (userId: string');
    expect(getUser).toMatch(/export function useGetUser</);
    expect(getUser).toMatch(/export function useGetUserSuspense</);
    expect(getUser).toContain("OperationError<'getUser'>");
    expect(getUser).not.toContain('signInWithPassword');

    const signIn = byPath.get('hooks/sign-in-with-password.ts') ?? '';
    expect(signIn).toMatch(/export const useSignInWithPassword = </);
    expect(signIn).toContain("OperationError<'signInWithPassword'>");

    expect(byPath.get('hooks.ts')).toMatch(/export \{ [^}]*\buseGetUser\b[^}]* \} from '\.\/hooks\/get-user';/);
    expect(byPath.get('hooks.ts')).toMatch(/export \{ [^}]*\buseSignInWithPassword\b[^}]* \} from '\.\/hooks\/sign-in-with-password';/);

    const types = byPath.get('hooks.schemas.ts') ?? '';
    expect(types).toContain("export type User = components['schemas']['User'];");
    expect(types).toContain("OperationBody<'signInWithPassword'>");
    expect(types).toContain("OperationQuery<'getUser'>");
  }, 60_000);
});

describe('splitHooks', () => {
  const source = `/**
 * header
 */
import { useQuery } from '@tanstack/react-query';
import type { QueryKey } from '@tanstack/react-query';
import type { User } from './hooks.schemas';

type Helper<T> = T;
type Unused = string;

export const getGetUserUrl = (id: string) => \`/users/\${id}\`;
export const useGetUser = (id: string): Helper<QueryKey> => useQuery<User>({ queryKey: [getGetUserUrl(id)] }).queryKey;
export const getListUsersUrl = () => '/users';
export const listUsersKey: QueryKey = [getListUsersUrl()];
`;

  it("starts a module at each operation's URL getter, importing only what it uses, one folder deeper", () => {
    const { index, modules } = splitHooks(source);
    expect(modules.map((module) => module.name)).toEqual(['get-user', 'list-users']);
    const [getUser, listUsers] = modules.map((module) => module.content);
    expect(getUser).toContain('useQuery');
    expect(getUser).toContain("from '../hooks.schemas'");
    expect(getUser).toContain('type Helper<T> = T;');
    expect(getUser).not.toContain('Unused');
    expect(getUser).not.toContain('getListUsersUrl');
    expect(listUsers).not.toContain('useQuery }');
    expect(listUsers).not.toContain('User }');
    expect(listUsers).toContain('QueryKey');
    expect(index).toContain("export { getGetUserUrl, useGetUser } from './hooks/get-user';");
    expect(index).toContain("export { getListUsersUrl, listUsersKey } from './hooks/list-users';");
  });

  it('refuses output it does not recognise', () => {
    expect(() => splitHooks('')).toThrow('orval produced no statements');
    expect(() => splitHooks("import Default from 'x';\nexport const getAUrl = () => '/a';")).toThrow('unexpected import');
    expect(() => splitHooks("const stray = 1;\nexport const getAUrl = () => '/a';")).toThrow(
      'unexpected statement before the first operation',
    );
  });
});
