import { SignIn } from '../../components/sign-in.tsx';
import { RedirectIfSignedIn } from './redirect-if-signed-in.tsx';

export function SignInPage() {
  return (
    <RedirectIfSignedIn kind="sign-in">
      <SignIn />
    </RedirectIfSignedIn>
  );
}
