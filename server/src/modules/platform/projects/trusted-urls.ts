import { RedirectUrlNotWhitelistedError } from '@gatehouse/protocol/errors';
import { RE2JS } from 're2js';
import type { Project } from '../../../tenancy/project.ts';
import { isLocalHost } from '../../../lib/local-url.ts';

/**
 * `*` matches one host label, `**` any number of labels; nothing else is special. Matched by RE2
 * (linear time): with the backtracking engine a domain of many `**` (each `.+`) against a long host
 * name of the caller's choosing took time growing as a power of its length, on the event loop.
 */
function hostPattern(host: string): RE2JS {
  const escaped = host
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((literal) => literal.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^.]+'),
    )
    .join('.+');
  return RE2JS.compile(`^${escaped}$`, RE2JS.CASE_INSENSITIVE);
}

/**
 * The one check of redirect and callback URLs: on a trusted domain of the project (same scheme,
 * host pattern, port, and under its path unless `anyPath`), or on a local host (`localhost`, `*.localhost`,
 * `127.x.x.x`, `[::1]`) when the project allows localhost.
 */
export function isTrustedUrl(project: Project, candidate: string, options: { anyPath?: boolean } = {}): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (project.config.domains.allowLocalhost && isLocalHost(url.hostname)) return true;
  return Object.values(project.config.domains.trustedDomains).some(({ baseUrl }) => {
    const match = /^(https?):\/\/([^/:]+)(?::(\d+))?(\/.*)?$/i.exec(baseUrl.trim());
    if (!match) return false;
    const [, scheme, host, port, path] = match;
    if (`${scheme?.toLowerCase()}:` !== url.protocol || !hostPattern(host as string).test(url.hostname)) return false;
    if ((port ?? '') !== url.port) return false;
    if (options.anyPath) return true;
    const basePath = (path ?? '/').replace(/\/$/, '');
    return url.pathname === basePath || url.pathname.startsWith(`${basePath}/`) || basePath === '';
  });
}

/**
 * A browser origin (`scheme://host[:port]`, as WebAuthn's clientDataJSON carries it) on which the
 * project's pages may run: a trusted domain's scheme, host and port whatever its path, or localhost.
 */
export function isTrustedOrigin(project: Project, origin: string): boolean {
  try {
    if (new URL(origin).origin !== origin) return false;
  } catch {
    return false;
  }
  return isTrustedUrl(project, origin, { anyPath: true });
}

export function assertTrustedUrl(project: Project, url: string): void {
  if (!isTrustedUrl(project, url)) throw new RedirectUrlNotWhitelistedError();
}
