import { PassThrough } from 'node:stream';
import { Suspense } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { GatehouseProvider } from '../gatehouse-provider.tsx';
import { UserNotSignedInError, useUser } from './use-user.ts';

/**
 * `useUser({ or })` rendered by React (server rendering, which suspends on the user query like the browser) under
 * the real provider against the real server: without a signed-in user, `or: 'throw'` throws in the protocol's words.
 */
const env = withTestContext({ listen: true });

function Greeting({ or }: { or: 'throw' | 'return-null' }) {
  const user = useUser({ or } as { or: 'throw' });
  return <p>{user ? `Hello, ${user.primary_email}` : 'Nobody'}</p>;
}

/** Renders until everything settled; resolves to the HTML and the errors React reported. */
function render(or: 'throw' | 'return-null'): Promise<{ html: string; errors: unknown[] }> {
  const errors: unknown[] = [];
  return new Promise((resolve, reject) => {
    const stream = renderToPipeableStream(
      <GatehouseProvider
        projectId={env.project.project.id}
        publishableClientKey={env.project.keys.publishable_client_key}
        baseUrl={env.baseUrl}
        tokenStore="memory"
      >
        <Suspense fallback={<p>Loading</p>}>
          <Greeting or={or} />
        </Suspense>
      </GatehouseProvider>,
      {
        onError: (error) => {
          errors.push(error);
        },
        onShellError: reject,
        onAllReady: () => {
          const sink = new PassThrough();
          let html = '';
          sink.on('data', (chunk: Buffer) => {
            html += chunk.toString('utf8');
          });
          sink.on('end', () => resolve({ html, errors }));
          stream.pipe(sink);
        },
      },
    );
  });
}

describe('useUser without a signed-in user', () => {
  it("throws UserNotSignedInError \"User is not signed in but useUser was called with { or: 'throw' }\" with or: 'throw'", async () => {
    const { errors } = await render('throw');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(UserNotSignedInError);
    expect((errors[0] as Error).message).toBe("User is not signed in but useUser was called with { or: 'throw' }");
  });

  it('returns null by default', async () => {
    const { html, errors } = await render('return-null');
    expect(errors).toEqual([]);
    expect(html).toContain('Nobody');
  });
});
