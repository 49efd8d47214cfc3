import type { DeviceInfo } from '../../../lib/place/device.ts';
import type { IpPlace } from '../../../lib/place/ip-place.ts';

/** The device as the email names it: "Mobile Safari 17 on iOS 17.1". */
export function describeDevice(device: DeviceInfo | null): string {
  if (!device?.browser && !device?.os) return 'An unknown device';
  if (device.browser && device.os) return `${device.browser} on ${device.os}`;
  return (device.browser ?? device.os) as string;
}

/** The place as the email names it: "London, England, GB"; unknown for addresses with no place (private ones). */
export function describePlace(place: IpPlace | null): string {
  const parts = [place?.cityName, place?.regionName, place?.countryCode].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(', ') : 'Unknown place';
}

/** "2026-11-28 14:30 UTC": the same for every reader, whatever their time zone. */
export function describeTime(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
