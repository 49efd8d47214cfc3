/** Handler URLs are paths; emails and providers need them absolute, on this page's origin. */
export function absoluteUrl(path: string): string {
  return new URL(path, window.location.href).href;
}
