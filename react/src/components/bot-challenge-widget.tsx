import { lazy, type ReactNode, Suspense, useRef, useState } from 'react';
import type { BotChallengeFields } from '../auth/bot-challenge.ts';
import type { ClientBotChallenge } from '../generated/hooks.schemas.ts';

export type { BotChallengeFields };

// The widget's frame loads with the project's first challenge, not with every sign-in page (issue #37's budget).
const BotChallengeWidget = lazy(() => import('./bot-challenge-frame.tsx').then((module) => ({ default: module.BotChallengeFrame })));

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
    <Suspense fallback={null}>
      <BotChallengeWidget
        key={round}
        challenge={challenge}
        onToken={(token) => answer({ ...latest.current, token })}
        onUnavailable={() => answer({ token: null, unavailable: true })}
      />
    </Suspense>
  ) : null;
  return { challenge, widget, fields, renew };
}
