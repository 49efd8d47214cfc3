import { useEffect, useRef } from 'react';
import type { ClientBotChallenge } from '../generated/hooks.schemas.ts';

/** The provider's widget in a page: renders it once per key and reports its answers (see useBotChallenge). */
export function BotChallengeFrame({
  challenge,
  onToken,
  onUnavailable,
}: {
  challenge: ClientBotChallenge;
  onToken: (token: string | null) => void;
  onUnavailable: () => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  // The latest callbacks, without re-rendering the widget when the form re-renders.
  const callbacks = useRef({ onToken, onUnavailable });
  callbacks.current = { onToken, onUnavailable };
  useEffect(() => {
    let cleanup: (() => void) | undefined;
    let cancelled = false;
    // The provider's loader comes as its own chunk, only for projects that turn a challenge on (the sign-in page's budget).
    import('../auth/bot-challenge.ts')
      .then(({ loadWidgetApi, renderWidget }) => loadWidgetApi(challenge).then((api) => ({ api, renderWidget })))
      .then(
        ({ api, renderWidget }) => {
          if (!cancelled && container.current)
            cleanup = renderWidget(api, container.current, challenge, (token) => callbacks.current.onToken(token));
        },
        () => {
          if (!cancelled) callbacks.current.onUnavailable();
        },
      );
    return () => {
      cancelled = true;
      cleanup?.();
    };
  }, [challenge]);
  return <div ref={container} className="gh-bot-challenge" data-bot-challenge={challenge.provider} />;
}
