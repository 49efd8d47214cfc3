import { useEffect, useRef, useState } from 'react';
import type { ClientBotChallenge } from '../generated/hooks.schemas.ts';

/** The bot-challenge fields a sign-up request carries (Stack's names). */
export type BotChallengeFields = {
  bot_challenge_token?: string;
  bot_challenge_phase?: 'invisible' | 'visible';
  bot_challenge_unavailable?: 'true';
};

/**
 * The project's bot challenge for a form: the widget (when the project has one) and the fields to
 * send. Tokens are single-use: `renew` after every answer renders a fresh widget for the next try.
 */
export function useBotChallenge(challenge: ClientBotChallenge | undefined) {
  const [token, setToken] = useState<string | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [round, setRound] = useState(0);
  const fields = (): BotChallengeFields => {
    if (!challenge) return {};
    if (token) return { bot_challenge_token: token, bot_challenge_phase: challenge.mode === 'invisible' ? 'invisible' : 'visible' };
    return unavailable ? { bot_challenge_unavailable: 'true' } : {};
  };
  const renew = () => {
    setToken(null);
    setRound((value) => value + 1);
  };
  const widget = challenge ? (
    <BotChallengeWidget key={round} challenge={challenge} onToken={setToken} onUnavailable={() => setUnavailable(true)} />
  ) : null;
  return { widget, fields, renew };
}

function BotChallengeWidget({
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
    // The loader comes with the first widget, not with every sign-in page (issue #37's budget): most projects have no challenge.
    import('../auth/bot-challenge.ts')
      .then(async ({ loadWidgetApi, renderWidget }) => {
        const api = await loadWidgetApi(challenge);
        if (!cancelled && container.current)
          cleanup = renderWidget(api, container.current, challenge, (token) => callbacks.current.onToken(token));
      })
      .catch(() => {
        if (!cancelled) callbacks.current.onUnavailable();
      });
    return () => {
      cancelled = true;
      cleanup?.();
    };
  }, [challenge]);
  return <div ref={container} className="gh-bot-challenge" data-bot-challenge={challenge.provider} />;
}
