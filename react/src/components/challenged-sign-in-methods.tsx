import type { ClientBotChallenge } from '../generated/hooks.schemas.ts';
import { useBotChallenge } from './bot-challenge-widget.tsx';
import { SignInMethods } from './sign-in-methods.tsx';

/** The sign-in methods under the project's bot challenge: one widget for the page (a lazy chunk, see SignIn). */
export function ChallengedSignInMethods({ challenge, initialEmail }: { challenge: ClientBotChallenge; initialEmail: string }) {
  const botChallenge = useBotChallenge(challenge);
  return <SignInMethods initialEmail={initialEmail} botChallenge={botChallenge} />;
}
