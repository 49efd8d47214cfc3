import { api, useItem, useUser } from '@gatehouse/react';
import { useState } from 'react';

/** Payments: the signed-in user's credits, and buying a plan on the platform's hosted checkout page. */
export function Shop() {
  const user = useUser({ or: 'redirect' });
  const credits = useItem('credits');
  const createPurchaseUrl = api.useCreatePurchaseUrl();
  const [problem, setProblem] = useState<string | null>(null);
  const buy = async (productId: string) => {
    setProblem(null);
    try {
      const { url } = await createPurchaseUrl.mutateAsync({
        data: { customer_type: 'user', customer_id: user.id, product_id: productId, return_url: `${window.location.origin}/shop` },
      });
      window.location.assign(url);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <section className="hero">
      <h1>Shop</h1>
      <p data-testid="credits">Credits: {credits?.quantity ?? 0}</p>
      <p className="actions">
        <button type="button" onClick={() => buy('pro')}>
          Buy Pro
        </button>{' '}
        <button type="button" onClick={() => buy('max')}>
          Buy Max
        </button>
      </p>
      {problem && <p role="alert">{problem}</p>}
    </section>
  );
}
