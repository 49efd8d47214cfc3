import { SignUp } from '../../components/sign-up.tsx';
import { RedirectIfSignedIn } from './redirect-if-signed-in.tsx';

export function SignUpPage() {
  return (
    <RedirectIfSignedIn kind="sign-up">
      <SignUp />
    </RedirectIfSignedIn>
  );
}
