import type { FloorDefinition, Fixture } from './operation-plan.ts';

/**
 * The floor of each read operation: what a bare Fastify route would do to answer the same request
 * (the same authentication, then one prepared statement returning the rows the answer is made of).
 * An operation without an entry is measured alone and reported as "no floor"; add one here to judge it.
 */
const project = (fixture: Fixture) => [fixture.project_id];
const projectAndUser = (fixture: Fixture) => [fixture.project_id, fixture.user_id];
const projectAndTeam = (fixture: Fixture) => [fixture.project_id, fixture.team_id];

export const readFloors: Readonly<Record<string, FloorDefinition>> = {
  // Answered from memory (or a constant): the floor is the authentication alone.
  getApiRoot: {},
  getHealth: {},
  getProjectJwks: {},
  getCurrentProject: { statement: 'select * from project where id = $1', values: project },
  getCurrentUser: { statement: 'select * from project_user where project_id = $1 and id = $2', values: projectAndUser },
  getUser: { statement: 'select * from project_user where project_id = $1 and id = $2', values: projectAndUser },
  listUsers: {
    statement: 'select * from project_user where project_id = $1 order by signed_up_at desc, id limit 100',
    values: project,
  },
  listContactChannels: {
    statement: 'select * from contact_channel where project_id = $1 and user_id = $2 order by created_at, id',
    values: projectAndUser,
  },
  getContactChannel: {
    statement: 'select * from contact_channel where project_id = $1 and user_id = $2 and id = $3',
    values: (fixture) => [fixture.project_id, fixture.user_id, fixture.contact_channel_id],
  },
  listSessions: {
    statement: 'select * from refresh_session where project_id = $1 and user_id = $2 order by created_at, id',
    values: projectAndUser,
  },
  listTeams: {
    statement:
      'select t.* from team t join team_member m on m.project_id = t.project_id and m.team_id = t.id where t.project_id = $1 and m.user_id = $2 order by t.created_at, t.id',
    values: projectAndUser,
    query: (fixture) => ({ user_id: fixture.user_id }),
  },
  getTeam: { statement: 'select * from team where project_id = $1 and id = $2', values: projectAndTeam },
  listTeamMemberProfiles: {
    statement: 'select * from team_member where project_id = $1 and team_id = $2 order by created_at, user_id',
    values: projectAndTeam,
    query: (fixture) => ({ team_id: fixture.team_id }),
  },
  getTeamMemberProfile: {
    statement: 'select * from team_member where project_id = $1 and team_id = $2 and user_id = $3',
    values: (fixture) => [fixture.project_id, fixture.team_id, fixture.user_id],
  },
  listTeamPermissions: {
    statement: 'select * from team_permission_grant where project_id = $1 and team_id = $2 and user_id = $3 order by permission_id',
    values: (fixture) => [fixture.project_id, fixture.team_id, fixture.user_id],
    query: (fixture) => ({ team_id: fixture.team_id, user_id: fixture.user_id }),
  },
  listProjectPermissions: {
    statement: 'select * from project_permission_grant where project_id = $1 and user_id = $2 order by permission_id',
    values: projectAndUser,
    query: (fixture) => ({ user_id: fixture.user_id }),
  },
  listUserApiKeys: {
    statement: 'select * from end_user_api_key where project_id = $1 and user_id = $2 order by created_at, id',
    values: projectAndUser,
  },
  getUserApiKey: {
    statement: 'select * from end_user_api_key where project_id = $1 and user_id = $2 and id = $3',
    values: (fixture) => [fixture.project_id, fixture.user_id, fixture.api_key_id],
  },
  listNotificationPreferences: {
    statement: 'select * from notification_preference where project_id = $1 and user_id = $2',
    values: projectAndUser,
  },
  // The item read the service makes (item-ledger.repository.ts `readItemState`), as one statement.
  getCustomerItem: {
    statement: `select
        coalesce((select t.total from payment_item_total t
          where t.project_id = $1 and t.customer_type = $2 and t.customer_id = $3 and t.item_id = $4), 0)
        + coalesce((select sum(c.delta) from payment_item_change c
          where c.project_id = $1 and c.customer_type = $2 and c.customer_id = $3 and c.item_id = $4
            and c.expires_at is not null and c.expires_at > now()), 0) as manual_total,
        p.*
      from (select 1) as anchor
      left join payment_customer_product p on p.project_id = $1 and p.customer_type = $2 and p.customer_id = $3
      order by p.created_at, p.id`,
    values: (fixture) => [fixture.project_id, fixture.customer_type, fixture.customer_id, fixture.item_id],
  },
  listCustomerProducts: {
    statement:
      'select * from payment_customer_product where project_id = $1 and customer_type = $2 and customer_id = $3 order by created_at, id',
    values: (fixture) => [fixture.project_id, fixture.customer_type, fixture.customer_id],
  },
};
