// Its own module so the app can load it lazily (a dynamic import of the package itself would keep all of it).
export { SelectedTeamSwitcher } from '@gatehouse/react';
