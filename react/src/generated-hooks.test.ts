import type { AddressInfo } from 'node:net';
import { createApiClient, CurrentProjectNotFoundError } from '@gatehouse/client';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestProject } from '../../server/src/testing/test-context.ts';
import { setApiClient } from './api-mutator.ts';
import { getGetCurrentProjectQueryKey, getGetCurrentProjectQueryOptions, getGetProjectJwksQueryOptions } from './generated/hooks.ts';

/** The orval-generated query options run through the project's own client against the real server. */
let context: TestContext;
let project: TestProject;
let baseUrl: string;
beforeAll(async () => {
  context = await createTestContext();
  project = await context.createProject();
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}`;
});
afterAll(() => context.close());

describe('generated React Query hooks', () => {
  it('fetch through the configured client and cache under the path-derived key', async () => {
    setApiClient(createApiClient({ baseUrl, headers: project.headers.client }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const current = await queryClient.fetchQuery(getGetCurrentProjectQueryOptions());
    expect(current.id).toBe(project.project.id);
    expect(queryClient.getQueryData(getGetCurrentProjectQueryKey())).toEqual(current);
    const jwks = await queryClient.fetchQuery(getGetProjectJwksQueryOptions(project.project.id, { include_anonymous: 'true' }));
    expect(jwks.keys).toHaveLength(3);
  });

  it('surface known errors as the generated classes', async () => {
    setApiClient(
      createApiClient({ baseUrl, headers: { ...project.headers.client, 'x-stack-project-id': '00000000-0000-4000-8000-00000000000f' } }),
    );
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await expect(queryClient.fetchQuery(getGetCurrentProjectQueryOptions())).rejects.toBeInstanceOf(CurrentProjectNotFoundError);
  });
});
