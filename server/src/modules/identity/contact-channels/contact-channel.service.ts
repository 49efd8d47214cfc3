import { randomUUID } from 'node:crypto';
import {
  ContactChannelAlreadyExistsError,
  ContactChannelAlreadyUsedForAuthBySomeoneElseError,
  EmailAlreadyVerifiedError,
  EmailIsNotPrimaryEmailError,
} from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { ContactChannelRow } from '../users/index.ts';
import { isUniqueViolation } from '../../../db/unique-violation.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { EmailService } from '../../messaging/email/index.ts';
import type { Project } from '../../../tenancy/project.ts';
import { assertTrustedUrl } from '../../platform/projects/index.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { UserService } from '../users/index.ts';
import { linkWithCode, type VerificationCodeService } from '../../authentication/verification-codes/index.ts';
import {
  clearPrimary,
  deleteChannel,
  findChannel,
  insertChannel,
  listChannelsOfUser,
  markChannelVerified,
  updateChannel,
} from './contact-channel.repository.ts';

export type ChannelWrite = { value?: string; used_for_auth?: boolean; is_primary?: boolean; is_verified?: boolean };

/** A user's emails: one primary, each verified by an emailed code; an auth email is unique in the project. */
export class ContactChannelService {
  constructor(
    private readonly db: DbHandle,
    private readonly users: UserService,
    private readonly codes: VerificationCodeService,
    private readonly email: EmailService,
  ) {}

  async list(projectId: ProjectId, userId: string): Promise<ContactChannelRow[]> {
    await this.users.get(projectId, userId);
    return listChannelsOfUser(this.db, projectId, userId);
  }

  async get(projectId: ProjectId, userId: string, id: string): Promise<ContactChannelRow> {
    const channel = await findChannel(this.db, projectId, userId, id);
    if (!channel) throw new PlainHttpError(404, 'Contact channel not found.');
    return channel;
  }

  async create(
    projectId: ProjectId,
    userId: string,
    write: Required<Pick<ChannelWrite, 'value' | 'used_for_auth'>> & ChannelWrite,
  ): Promise<ContactChannelRow> {
    await this.users.get(projectId, userId);
    return this.write(write, async (trx) => {
      if (write.is_primary) await clearPrimary(trx, projectId, userId);
      return insertChannel(trx, {
        id: randomUUID(),
        project_id: projectId,
        user_id: userId,
        value: write.value,
        used_for_auth: write.used_for_auth,
        is_primary: write.is_primary ?? false,
        is_verified: write.is_verified ?? false,
      });
    });
  }

  async update(projectId: ProjectId, userId: string, id: string, write: ChannelWrite): Promise<ContactChannelRow> {
    const channel = await this.get(projectId, userId, id);
    const valueChanged = write.value !== undefined && write.value.toLowerCase() !== channel.value.toLowerCase();
    return this.write({ value: write.value ?? channel.value }, async (trx) => {
      if (write.is_primary) await clearPrimary(trx, projectId, userId);
      return updateChannel(trx, projectId, id, {
        value: write.value,
        used_for_auth: write.used_for_auth,
        is_primary: write.is_primary,
        is_verified: write.is_verified ?? (valueChanged ? false : undefined),
      });
    });
  }

  async delete(projectId: ProjectId, userId: string, id: string): Promise<void> {
    await this.get(projectId, userId, id);
    await deleteChannel(this.db, projectId, id);
  }

  async sendVerification(project: Project, userId: string, id: string, callbackUrl: string): Promise<void> {
    assertTrustedUrl(project, callbackUrl);
    const channel = await this.get(project.id, userId, id);
    if (channel.is_verified) throw new EmailAlreadyVerifiedError();
    await this.emailCode(project, channel, callbackUrl);
  }

  /** The legacy form: the email must be the user's primary one. */
  async sendPrimaryVerification(project: Project, user: UserRecord, email: string, callbackUrl: string): Promise<void> {
    assertTrustedUrl(project, callbackUrl);
    if (user.primary_email?.toLowerCase() !== email.toLowerCase())
      throw new EmailIsNotPrimaryEmailError({ email, primary_email: user.primary_email });
    if (user.primary_email_verified) throw new EmailAlreadyVerifiedError();
    await this.sendPrimaryEmailVerification(project, user, callbackUrl);
  }

  /** After sign-up: verify the primary email (nothing to do without one). */
  async sendPrimaryEmailVerification(project: Project, user: UserRecord, callbackUrl: string): Promise<void> {
    const primary = (await listChannelsOfUser(this.db, project.id, user.id)).find((channel) => channel.is_primary);
    if (primary && !primary.is_verified) await this.emailCode(project, primary, callbackUrl);
  }

  async verify(projectId: ProjectId, code: string, options: { peek?: boolean } = {}): Promise<void> {
    const data = await this.codes.redeem(projectId, 'contact_channel_verification', code, options);
    if (options.peek) return;
    // The channel may have changed address since the email was sent: only that address is verified.
    await markChannelVerified(this.db, projectId, String(data.channel_id), String(data.value));
  }

  private async emailCode(project: Project, channel: ContactChannelRow, callbackUrl: string): Promise<void> {
    const { code } = await this.codes.issue(project.id, 'contact_channel_verification', {
      channel_id: channel.id,
      user_id: channel.user_id,
      value: channel.value,
    });
    // In the user's own language, else the project's default.
    const { language } = await this.users.get(project.id, channel.user_id);
    await this.email.send(project, {
      to: channel.value,
      kind: 'email_verification',
      variables: { link: linkWithCode(callbackUrl, code) },
      language,
    });
  }

  private async write(write: ChannelWrite, work: (trx: DbHandle) => Promise<ContactChannelRow>): Promise<ContactChannelRow> {
    try {
      return await inTransaction(this.db, work);
    } catch (error) {
      if (isUniqueViolation(error, 'contact_channel_auth_value_idx')) {
        throw new ContactChannelAlreadyUsedForAuthBySomeoneElseError({
          type: 'email',
          contact_channel_value: write.value ?? null,
          would_work_if_email_was_verified: false,
        });
      }
      if (isUniqueViolation(error, 'contact_channel_user_value_idx')) throw new ContactChannelAlreadyExistsError();
      throw error;
    }
  }
}
