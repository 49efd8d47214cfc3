import { describe, expect, it } from 'vitest';
import { emitClientOperations } from './emit-client-operations.ts';
import { tinySpec } from './testing/tiny-spec.ts';

describe('emitClientOperations', () => {
  const [operations, table] = emitClientOperations(tinySpec());

  it('writes one const per operation with what the fetch client needs to call it', () => {
    expect(operations?.path).toBe('protocol/src/generated/operations.ts');
    expect(operations?.content).toContain('export type OperationName =\n  | "getUser"\n  | "signInWithPassword";');
    expect(operations?.content).toContain(
      'export const getUser = {"operationId":"getUser","method":"GET","path":"/users/{user_id}","responseType":"json","auth":"required"} as const;',
    );
    expect(operations?.content).toContain(
      'export const signInWithPassword = {"operationId":"signInWithPassword","method":"POST","path":"/auth/password/sign-in","responseType":"text","bodyType":"application/json","auth":"optional"} as const;',
    );
  });

  it('repeats the same facts in the table by operationId', () => {
    expect(table?.path).toBe('protocol/src/generated/operation-table.ts');
    expect(table?.content).toContain("import type { OperationName } from './operations.ts';");
    expect(table?.content).toContain('  getUser: {"operationId":"getUser","method":"GET"');
    expect(table?.content).toContain('} as const satisfies Record<OperationName, unknown>;');
  });

  it('refuses an operationId that cannot name a const', () => {
    const spec = tinySpec();
    const operation = spec.paths['/users/{user_id}']?.get;
    if (operation) operation.operationId = 'delete';
    expect(() => emitClientOperations(spec)).toThrow('operationId delete cannot name a const');
    if (operation) operation.operationId = 'Get-User';
    expect(() => emitClientOperations(spec)).toThrow('operationId Get-User cannot name a const');
  });
});
