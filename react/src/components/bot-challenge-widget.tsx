import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { BotChallengeFields } from '../auth/bot-challenge.ts';
import type { ClientBotChallenge } from '../generated/hooks.schemas.ts';

export type { BotChallengeFields };

/** What a page's forms and OAuth buttons share of its bot challenge (one widget per page). */
export type BotChallenge = {
  /** The project's challenge (undefined when it is off). */
  challenge: ClientBotChallenge | undefined;
  widget: ReactNode;
  /** The fields to send now (the latest answer, also between renders: an OAuth click waits on it). */
  fields: () => BotChallengeFields;
  renew: () => void;
};

/**
 * The project's bot challenge for a form: the widget (when the project has one) and the fields to
 * send. Tokens are single-use: `renew` after every answer renders a fresh widget for the next try.
 */
export function useBotChallenge(challenge: ClientBotChallenge | undefined): BotChallenge {
  const [round, setRound] = useState(0);
  // The widget's latest answer: kept in a ref (read by a click waiting outside renders), its state re-renders.
  const latest = useRef<{ token: string | null; unavailable?: true }>({ token: null });
  const [, setAnswer] = useState(latest.current);
  const answer = (value: typeof latest.current) => {
    latest.current = value;
    setAnswer(value);
  };
  const fields = (): BotChallengeFields => {
    const { token, unavailable } = latest.current;
    if (!challenge) return {};
    if (token) return { bot_challenge_token: token, bot_challenge_phase: challenge.mode === 'invisible' ? 'invisible' : 'visible' };
    return unavailable ? { bot_challenge_unavailable: 'true' } : {};
  };
  const renew = () => {
    answer({ ...latest.current, token: null });
    setRound((value) => value + 1);
  };
  const widget = challenge ? (
    <BotChallengeWidget
      key={round}
      challenge={challenge}
      onToken={(token) => answer({ ...latest.current, token })}
      onUnavailable={() => answer({ token: null, unavailable: true })}
    />
  ) : null;
  return { challenge, widget, fields, renew };
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
