import { type ReactNode, useEffect, useRef, useState } from 'react';
import { type BotChallengeFields, loadWidgetApi, renderWidget } from '../auth/bot-challenge.ts';
import type { ClientBotChallenge } from '../generated/hooks.schemas.ts';

export type { BotChallengeFields };

/** What a page's forms and OAuth buttons share of its bot challenge (one widget per page). */
export type BotChallenge = {
  /** The project's challenge (undefined when it is off). */
  challenge: ClientBotChallenge | undefined;
  widget: ReactNode;
  fields: () => BotChallengeFields;
  /**
   * The fields once the widget has answered (a token, or the script could not load), waiting at most
   * `timeoutMillis` for it: an invisible widget may still be working when a button is clicked.
   */
  settledFields: (timeoutMillis: number) => Promise<BotChallengeFields>;
  renew: () => void;
};

/**
 * The project's bot challenge for a form: the widget (when the project has one) and the fields to
 * send. Tokens are single-use: `renew` after every answer renders a fresh widget for the next try.
 */
export function useBotChallenge(challenge: ClientBotChallenge | undefined): BotChallenge {
  const [token, setToken] = useState<string | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [round, setRound] = useState(0);
  // The latest answer for `settledFields`, which waits outside React's renders.
  const latest = useRef({ token, unavailable });
  latest.current = { token, unavailable };
  const fieldsOf = (answer: { token: string | null; unavailable: boolean }): BotChallengeFields => {
    if (!challenge) return {};
    if (answer.token)
      return { bot_challenge_token: answer.token, bot_challenge_phase: challenge.mode === 'invisible' ? 'invisible' : 'visible' };
    return answer.unavailable ? { bot_challenge_unavailable: 'true' } : {};
  };
  const fields = () => fieldsOf({ token, unavailable });
  const settledFields = async (timeoutMillis: number) => {
    const deadline = Date.now() + timeoutMillis;
    while (challenge && !latest.current.token && !latest.current.unavailable && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    return fieldsOf(latest.current);
  };
  const renew = () => {
    setToken(null);
    setRound((value) => value + 1);
  };
  const onToken = (value: string | null) => {
    // Kept at once too: a click may be waiting in `settledFields` before React re-renders.
    latest.current = { ...latest.current, token: value };
    setToken(value);
  };
  const onUnavailable = () => {
    latest.current = { ...latest.current, unavailable: true };
    setUnavailable(true);
  };
  const widget = challenge ? (
    <BotChallengeWidget key={round} challenge={challenge} onToken={onToken} onUnavailable={onUnavailable} />
  ) : null;
  return { challenge, widget, fields, settledFields, renew };
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
    loadWidgetApi(challenge).then(
      (api) => {
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
