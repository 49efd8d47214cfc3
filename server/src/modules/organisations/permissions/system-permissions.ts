/** The system team permissions: they gate the client team operations and cannot be redefined. */
export const systemTeamPermissions = [
  '$update_team',
  '$delete_team',
  '$read_members',
  '$remove_members',
  '$invite_members',
  '$manage_api_keys',
] as const;
export type SystemTeamPermission = (typeof systemTeamPermissions)[number];

export const isSystemPermission = (id: string): boolean => id.startsWith('$');

/** The team roles every project starts with (the default config grants them to creators and members). */
export const defaultTeamRoles = [
  { id: 'team_admin', description: 'Manage the team, its members and its API keys', contained_ids: [...systemTeamPermissions] },
  { id: 'team_member', description: 'See the other members', contained_ids: ['$read_members'] },
];
