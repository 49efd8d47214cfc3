import type { OutboundPolicy } from '../../../lib/outbound/address-policy.ts';
import {
  type HostResolver,
  hostOfUrl,
  isRefusal,
  type OutboundTarget,
  resolveOutboundTarget,
} from '../../../lib/outbound/outbound-target.ts';

/**
 * Why a webhook URL is refused, in the words the API gives (`WEBHOOK_ENDPOINT_URL_NOT_ALLOWED`'s
 * `reason`, a test message's `error_message`, a delivery attempt's `error`). None names an
 * address: the caller learns the URL is refused, not what a name resolves to inside the network.
 */
export const urlRefusals = {
  invalid: 'not a valid URL',
  scheme: 'the scheme must be http or https',
  unresolvable: 'its host does not resolve',
  notAllowed:
    'its host is not a public address (loopback is allowed only when the project allows localhost; private, link-local and other internal ranges never are)',
} as const;

export type UrlCheck = { allowed: true; url: URL; target: OutboundTarget } | { allowed: false; reason: string };

/** Checks a webhook URL: its scheme, and every address its host resolves to under the project's policy. */
export async function checkWebhookUrl(raw: string, policy: OutboundPolicy, resolve?: HostResolver): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { allowed: false, reason: urlRefusals.invalid };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { allowed: false, reason: urlRefusals.scheme };
  const target = await resolveOutboundTarget(hostOfUrl(url), policy, resolve);
  if (isRefusal(target))
    return { allowed: false, reason: target.refused === 'unresolvable' ? urlRefusals.unresolvable : urlRefusals.notAllowed };
  return { allowed: true, url, target };
}
