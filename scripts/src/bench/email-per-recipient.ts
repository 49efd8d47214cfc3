import { sql } from 'kysely';
import type { DatabaseHandle } from '../../../server/src/db/create-database.ts';
import type { Services } from '../../../server/src/services.ts';

export type PerRecipientFigures = {
  users: number;
  /** Renders per second the sandbox pool produces alone (the same template, a recipient each, as many in flight as the worker may ask). */
  poolRendersPerSecond: number;
  poolRenders: number;
  /** Emails per second at the sink over the whole drain of a per-recipient send to `users` users. */
  drainPerSecond: number;
  delivered: number;
  drainSeconds: number;
};

/**
 * A template that transforms the recipient's name: the batch renderer cannot render it once with
 * holes (batch-rendering.ts), so every row is rendered on its own in the sandbox.
 */
const perRecipientTemplate = `import { Container, Heading, Text } from '@react-email/components';
export const subject = 'Your week';
export function EmailTemplate({ user, project }) {
  const shout = (user.display_name ?? 'there').toUpperCase();
  return (
    <Container>
      <Heading>HELLO {shout}</Heading>
      <Text>{shout.length} letters in your name. Welcome to {project.display_name}.</Text>
    </Container>
  );
}`;

type Context = {
  database: DatabaseHandle;
  services: Services;
  /** The project's own SMTP server: the sink. */
  smtpConfig: Record<string, unknown>;
  received: () => number;
  deadline: number;
};

/**
 * The per-recipient case of issue #38: what the render pool alone produces (renders of the template
 * for distinct recipients, `inFlight` at a time), then a send-email of the same template (a draft) to
 * every user of a project of `users` users, drained by the running outbox worker to the sink. The
 * drain should reach 0.8x of the pool's rate: the worker adds SMTP and the settling statements to
 * the renders, and should overlap them.
 */
export async function measurePerRecipientDrain(context: Context, users: number): Promise<PerRecipientFigures> {
  const { services, database } = context;
  const project = await services.projects.create({
    displayName: 'Per-recipient bench',
    configOverride: { 'domains.allowLocalhost': true, 'emails.server': context.smtpConfig },
  });
  const themeSource = services.emailContent.themeSource(project, undefined);
  const threads = Number(process.env.EMAIL_RENDER_THREADS ?? 2);
  const poolRenders = Number(process.env.BENCH_EMAIL_POOL_RENDERS ?? Math.min(users, 400));
  const render = (index: number) =>
    services.emailContent.renderOrThrow({
      templateSource: perRecipientTemplate,
      themeSource,
      props: {
        user: { id: `u${index}`, display_name: `User ${index}`, primary_email: `user${index}@example.com` },
        project: { id: project.id, display_name: project.display_name },
        variables: {},
      },
    });
  await render(-1); // the bundle compiled once, as the worker's first row would
  let next = 0;
  const poolStarted = performance.now();
  await Promise.all(
    Array.from({ length: threads * 4 }, async () => {
      while (next < poolRenders) await render(next++);
    }),
  );
  const poolSeconds = (performance.now() - poolStarted) / 1000;

  await sql`
    insert into project_user (id, project_id, display_name, primary_email, primary_email_verified)
    select gen_random_uuid(), ${project.id}, 'Reader ' || g, 'reader' || g || '@example.com', true
    from generate_series(1, ${users}::int) g`.execute(database.db);
  const draftId = await services.emailContent.drafts.create(project, { display_name: 'Per recipient', tsx_source: perRecipientTemplate });
  const before = context.received();
  const started = performance.now();
  await services.emailSending.send(project, { all_users: true, draft_id: draftId });
  while (context.received() - before < users && Date.now() < context.deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const drainSeconds = (performance.now() - started) / 1000;
  const delivered = context.received() - before;
  return {
    users,
    poolRendersPerSecond: Math.round((poolRenders / poolSeconds) * 10) / 10,
    poolRenders,
    drainPerSecond: Math.round((delivered / drainSeconds) * 10) / 10,
    delivered,
    drainSeconds: Math.round(drainSeconds * 10) / 10,
  };
}
