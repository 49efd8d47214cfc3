import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useGatehouse } from '../gatehouse-context.ts';

/** An anchor that moves within the app without a reload (a plain link for new tabs and other origins). */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { navigate } = useGatehouse();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const url = new URL(href, window.location.href);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    navigate(url.href);
  };
  return <a href={href} onClick={follow} {...rest} />;
}
