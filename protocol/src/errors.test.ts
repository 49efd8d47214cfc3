import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * `knownErrorFromBody` imports the code-to-class table at the first error answer. When that import
 * fails (a browser that lost its connection, an app redeployed under an open page), the answer must
 * still read as the server's error, not as a failed chunk load.
 */
describe('knownErrorFromBody when the error table cannot load', () => {
  afterEach(() => {
    vi.doUnmock('./error-table.ts');
    vi.resetModules();
  });

  it('keeps the code, status, message and details as a plain KnownError', async () => {
    vi.resetModules();
    vi.doMock('./error-table.ts', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const { KnownError, TeamNotFoundError, knownErrorFromBody } = await import('./errors.ts');
    const error = await knownErrorFromBody({ code: 'TEAM_NOT_FOUND', error: 'No team.', details: { team_id: 't' } }, 404);
    expect(error).toBeInstanceOf(KnownError);
    expect(error).not.toBeInstanceOf(TeamNotFoundError);
    expect(error).toMatchObject({ code: 'TEAM_NOT_FOUND', status: 404, message: 'No team.', details: { team_id: 't' } });
  });

  it('rebuilds the generated class when the table loads', async () => {
    const { TeamNotFoundError, knownErrorFromBody } = await import('./errors.ts');
    const error = await knownErrorFromBody({ code: 'TEAM_NOT_FOUND', error: 'No team.', details: { team_id: 't' } }, 404);
    expect(error).toBeInstanceOf(TeamNotFoundError);
  });
});
