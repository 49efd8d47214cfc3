import { describe, expect, it } from 'vitest';
import { expectError } from './expect-response.ts';
import { withTestContext } from './test-context.ts';

/**
 * The contract checker's typed answers: a request that names its operation gets the spec's body type (so
 * reading an undeclared field fails `pnpm typecheck`), and must reach that operation (so the type cannot lie).
 */
const env = withTestContext({ projectConfig: { 'auth.password.allowSignIn': true } });

describe('contractRequest with an operation', () => {
  it('types the body by the operation: declared fields read, undeclared ones fail typecheck', async () => {
    const signUp = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/sign-up',
      headers: env.project.headers.client,
      payload: { email: `typed-${Date.now()}@example.com`, password: 'correct horse battery' },
      operation: 'signUpWithPassword',
    });
    expect(signUp.status, signUp.text).toBe(200);
    const userId: string = signUp.body.user_id;
    expect(userId).toMatch(/^[0-9a-f-]{36}$/);
    // @ts-expect-error the spec declares no `user` on signUpWithPassword's answer (this line fails typecheck if the type allowed it)
    expect(signUp.body.user).toBeUndefined();

    const me = await env.context.request({
      url: '/api/v1/users/me',
      headers: { ...env.project.headers.client, 'x-stack-access-token': signUp.body.access_token },
      operation: 'getCurrentUser',
    });
    expect(me.body.id).toBe(userId);
    // @ts-expect-error no view of the user declares a password_hash
    expect(me.body.password_hash).toBeUndefined();
  });

  it("keeps an error answer's code, message and details readable", async () => {
    const refused = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/sign-in',
      headers: env.project.headers.client,
      payload: { email: 'nobody@example.com', password: 'not the password' },
      operation: 'signInWithPassword',
    });
    expectError(refused, 400, 'EMAIL_PASSWORD_MISMATCH');
    expect(refused.body.error).toBe('Wrong e-mail or password.');
  });

  it('fails a request that reaches another operation than the one it names', async () => {
    await expect(
      env.context.request({ url: '/api/v1/users/me', headers: env.project.headers.client, operation: 'listUsers' }),
    ).rejects.toThrow('the request names listUsers but reaches getCurrentUser');
  });
});
