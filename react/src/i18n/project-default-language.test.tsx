import { PassThrough } from 'node:stream';
import { Suspense } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { GatehouseProvider } from '../gatehouse-provider.tsx';
import { getGetCurrentProjectQueryKey } from '../generated/hooks.ts';
import { createGatehouseQueryClient } from '../query-policy.ts';
import { useTranslation } from './i18n-context.ts';

/**
 * The UI's language, rendered by React (server rendering suspends on the messages and the project as the browser does)
 * under the real provider against the real server: the `lang` prop, then the browser's languages, then the project's
 * default language (`config.default_language`), then English.
 */
const env = withTestContext({ listen: true });

function SignInTitle() {
  const { t, language } = useTranslation();
  return <p>{`${language}: ${t('signIn.title')}`}</p>;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Renders with these browser languages until everything settled; the text shown and whether the project was fetched. */
async function render(options: { project: TestProject; lang?: string; browser: string[] }) {
  vi.stubGlobal('navigator', { languages: options.browser });
  const queryClient = createGatehouseQueryClient();
  const html = await new Promise<string>((resolve, reject) => {
    const stream = renderToPipeableStream(
      <GatehouseProvider
        projectId={options.project.project.id}
        publishableClientKey={options.project.keys.publishable_client_key}
        baseUrl={env.baseUrl}
        tokenStore="memory"
        queryClient={queryClient}
        {...(options.lang === undefined ? {} : { lang: options.lang })}
      >
        <Suspense fallback={<p>Loading</p>}>
          <SignInTitle />
        </Suspense>
      </GatehouseProvider>,
      {
        onShellError: reject,
        onError: reject,
        onAllReady: () => {
          const sink = new PassThrough();
          let text = '';
          sink.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
          });
          sink.on('end', () => resolve(text));
          stream.pipe(sink);
        },
      },
    );
  });
  const shown = /<p>([^<]*)<\/p>/.exec(html)?.[1];
  return { shown, projectFetched: queryClient.getQueryData(getGetCurrentProjectQueryKey()) !== undefined };
}

describe("the UI's language", () => {
  it('is the lang prop first, whatever the browser and the project say; the project is not asked', async () => {
    const project = await env.context.createProject({ 'project.defaultLanguage': 'fr' });
    expect(await render({ project, lang: 'ja', browser: ['de-DE', 'de'] })).toEqual({ shown: 'ja: サインイン', projectFetched: false });
  });

  it("is the first of the browser's languages the UI has without a lang prop (or with one it lacks)", async () => {
    const project = await env.context.createProject({ 'project.defaultLanguage': 'fr' });
    expect(await render({ project, browser: ['nl-NL', 'de-AT', 'ko'] })).toEqual({ shown: 'de: Anmelden', projectFetched: false });
    expect(await render({ project, lang: 'sv', browser: ['ko-KR'] })).toEqual({ shown: 'ko: 로그인', projectFetched: false });
  });

  it("is the project's default when neither the lang prop nor the browser names a language the UI has", async () => {
    const project = await env.context.createProject({ 'project.defaultLanguage': 'fr' });
    expect(await render({ project, browser: ['nl-NL', 'sv'] })).toEqual({ shown: 'fr: Connexion', projectFetched: true });
    expect(await render({ project, lang: 'nl', browser: [] })).toEqual({ shown: 'fr: Connexion', projectFetched: true });
  });

  it('is English when the project has no default language either', async () => {
    const project = await env.context.createProject();
    expect(await render({ project, browser: ['nl-NL'] })).toEqual({ shown: 'en: Sign in', projectFetched: true });
  });
});
