import { AccountSettings } from '../../components/account-settings.tsx';

export function AccountSettingsPage() {
  return <AccountSettings />;
}
