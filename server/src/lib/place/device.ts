import UAParser from 'ua-parser-js';

/** What a user agent says about the device: browser, operating system and kind of device (each null when unknown). */
export type DeviceInfo = { browser: string | null; os: string | null; deviceType: string | null };

/** Longer user agents are cut before parsing (real ones are a few hundred characters). */
const maxUserAgentLength = 1024;

/**
 * Parsed with ua-parser-js 1.x (MIT; the 2.x line is AGPL). A user agent without a device type
 * is a desktop browser, as ua-parser-js leaves that type out.
 */
export function deviceOfUserAgent(userAgent: string | null | undefined): DeviceInfo | null {
  if (!userAgent) return null;
  const parsed = new UAParser(userAgent.slice(0, maxUserAgentLength)).getResult();
  const join = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' ') || null;
  const browser = join(parsed.browser.name, parsed.browser.major);
  const os = join(parsed.os.name, parsed.os.version);
  if (!browser && !os) return { browser: null, os: null, deviceType: null };
  return { browser, os, deviceType: parsed.device.type ?? 'desktop' };
}

/** What makes a device "seen before": browser and OS family (no versions, which change on every update) and country. */
export function deviceFingerprint(userAgent: string | null | undefined, countryCode: string | null): string {
  const parsed = new UAParser((userAgent ?? '').slice(0, maxUserAgentLength)).getResult();
  return [parsed.browser.name ?? '?', parsed.os.name ?? '?', parsed.device.type ?? 'desktop', countryCode ?? '?'].join('|');
}
