import type { SessionList } from '@gatehouse/react';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';

type Session = SessionList['items'][number];

/** "London, England, GB": the place of the session's last address, as far as it is known. */
export function placeOfSession(session: Session): string | null {
  const info = session.last_used_at_end_user_ip_info;
  if (!info) return null;
  const parts = [info.cityName, info.regionName, info.countryCode].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(', ') : null;
}

/** "Mobile Safari 17 on iOS 17.1 (mobile)": the device that signed the session in. */
export function deviceOfSession(session: Session, t: Translate): string | null {
  const device = session.device;
  if (!device || (!device.browser && !device.os)) return null;
  const what =
    device.browser && device.os ? t('place.deviceOn', { browser: device.browser, os: device.os }) : (device.browser ?? device.os);
  return device.device_type ? `${what} (${device.device_type})` : what;
}

/** DB-IP's licence (CC BY 4.0) asks for a link wherever its places are shown. */
export function IpPlaceAttribution() {
  const { t } = useDashboardTranslation();
  return (
    <p className="dash-muted">
      <a href="https://db-ip.com">{t('place.attribution')}</a>
    </p>
  );
}
