import { createApiClient } from '@gatehouse/client';
import type { ApiHttpError, ConnectionError } from '@gatehouse/client';
import type { OperationBody, OperationErrors, OperationQuery, OperationResult } from '@gatehouse/protocol';
import { CurrentProjectNotFoundError } from '@gatehouse/protocol/errors';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { setApiClient } from './api-mutator.ts';
import {
  type CreateUserMutationError,
  createUser,
  getGetCurrentProjectQueryKey,
  getGetCurrentProjectQueryOptions,
  getGetProjectJwksQueryOptions,
  listUsers,
} from './generated/hooks.ts';

/** The orval-generated query options run through the project's own client against the real server. */
const env = withTestContext({ listen: true });

describe('generated React Query hooks', () => {
  it('fetch through the configured client and cache under the path-derived key', async () => {
    setApiClient(createApiClient({ baseUrl: env.baseUrl, headers: env.project.headers.client }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const current = await queryClient.fetchQuery(getGetCurrentProjectQueryOptions());
    expect(current.id).toBe(env.project.project.id);
    expect(queryClient.getQueryData(getGetCurrentProjectQueryKey())).toEqual(current);
    const jwks = await queryClient.fetchQuery(getGetProjectJwksQueryOptions(env.project.project.id, { include_anonymous: 'true' }));
    expect(jwks.keys).toHaveLength(3);
  });

  it('surface known errors as the generated classes', async () => {
    setApiClient(
      createApiClient({
        baseUrl: env.baseUrl,
        headers: { ...env.project.headers.client, 'x-stack-project-id': '00000000-0000-4000-8000-00000000000f' },
      }),
    );
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await expect(queryClient.fetchQuery(getGetCurrentProjectQueryOptions())).rejects.toBeInstanceOf(CurrentProjectNotFoundError);
  });

  it('are typed by the protocol types: one type family, and the errors the client throws', () => {
    expectTypeOf(createUser).parameter(0).toEqualTypeOf<OperationBody<'createUser'>>();
    expectTypeOf(createUser).returns.resolves.toEqualTypeOf<OperationResult<'createUser'>>();
    expectTypeOf(listUsers).parameter(0).toEqualTypeOf<OperationQuery<'listUsers'> | undefined>();
    expectTypeOf<CreateUserMutationError>().toEqualTypeOf<OperationErrors['createUser'] | ApiHttpError | ConnectionError>();
  });
});
