import { useGatehouse } from '../../gatehouse-context.ts';
import { useVerifyContactChannel } from '../../generated/hooks.ts';
import { Card, RequestError } from '../../ui/form.tsx';
import { Link } from '../../ui/link.tsx';
import { queryParam } from './query-param.ts';

/** Verifies an email from the emailed link, on a click (mail scanners open links but do not click). */
export function EmailVerificationPage() {
  const { urls } = useGatehouse();
  const code = queryParam('code');
  const verify = useVerifyContactChannel();
  if (!code) {
    return (
      <Card title="Verify your email">
        <p className="gh-error">This link is incomplete. Open the link from the email again.</p>
      </Card>
    );
  }
  return (
    <Card title="Verify your email">
      {verify.isSuccess ? (
        <div className="gh-stack">
          <p className="gh-success" role="status">
            Your email is verified.
          </p>
          <Link href={urls.home}>Continue</Link>
        </div>
      ) : (
        <div className="gh-stack">
          <RequestError error={verify.error} />
          <button type="button" className="gh-primary" disabled={verify.isPending} onClick={() => verify.mutate({ data: { code } })}>
            Verify email
          </button>
        </div>
      )}
    </Card>
  );
}
