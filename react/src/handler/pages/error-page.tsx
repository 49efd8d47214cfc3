import { useGatehouse } from '../../gatehouse-context.ts';
import { Card } from '../../ui/form.tsx';
import { Link } from '../../ui/link.tsx';
import { queryParam } from './query-param.ts';

/** Where flows that fail outside the app (OAuth providers, links) land with `errorCode` and `message`. */
export function ErrorPage() {
  const { urls } = useGatehouse();
  const message = queryParam('message') ?? queryParam('error_description') ?? 'Something went wrong.';
  const code = queryParam('errorCode') ?? queryParam('error');
  return (
    <Card title="Something went wrong">
      <p className="gh-error" role="alert">
        {message}
      </p>
      {code ? <p className="gh-muted">Error code: {code}</p> : null}
      <Link href={urls.signIn}>Back to sign in</Link>
    </Card>
  );
}
