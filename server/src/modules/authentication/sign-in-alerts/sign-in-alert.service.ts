import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { AfterAnswerWork } from '../../../lib/after-answer-work.ts';
import { deviceFingerprint, deviceOfUserAgent } from '../../../lib/place/device.ts';
import { placeOfIp } from '../../../lib/place/ip-place.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { EmailService } from '../../messaging/email/index.ts';
import { type NotificationPreferenceService, signInAlertsCategoryId } from '../../messaging/notification-preferences/index.ts';
import {
  deleteLeastRecentKnownDevices,
  findKnownDevices,
  insertKnownDevice,
  lockKnownDevicesOfUser,
  touchKnownDevice,
} from './known-device.repository.ts';
import { describeDevice, describePlace, describeTime } from './sign-in-description.ts';

/** Devices kept per user (the least recently seen go first); a real person has a handful. */
export const maxKnownDevicesPerUser = 50;

/** What a sign-in was: the user agent and address of its session, and when. */
export type SignInSighting = { userAgent: string | null; ip: string | null; at: Date };

/** Whether a device was the user's first, one seen before, or a new one. */
export type DeviceSighting = 'first' | 'known' | 'new';

/**
 * The new-device sign-in email: each person's sign-in remembers its device (browser and OS family,
 * kind, country); one from a device the user never used, once they have used any, is announced to
 * their verified primary email, unless they turned Sign-in alerts off. The first sign-in (sign-up)
 * is never announced. The work runs after the sign-in's answer, so a slow mail server never delays it.
 */
export class SignInAlertService {
  constructor(
    private readonly db: DbHandle,
    private readonly email: EmailService,
    private readonly preferences: NotificationPreferenceService,
    private readonly logError: (message: string, error: unknown) => void = (message, error) =>
      console.error(message, error instanceof Error ? error.message : error),
  ) {}

  /** Sign-ins being looked at (see `settled`). */
  private readonly sightings = new AfterAnswerWork((error) => this.logError('sign-in alert failed', error));

  /** Looks at a person's sign-in once the answer is on its way; a failure is logged, never the sign-in's. */
  noteSignIn(project: Project, user: UserRecord, sighting: SignInSighting): void {
    if (user.is_anonymous) return;
    this.sightings.start(() => this.alertIfNewDevice(project, user, sighting));
  }

  /** Resolves once every sign-in noted so far has been looked at (tests; shutdown). */
  async settled(): Promise<void> {
    await this.sightings.settled();
  }

  private async alertIfNewDevice(project: Project, user: UserRecord, sighting: SignInSighting): Promise<void> {
    const place = await placeOfIp(sighting.ip);
    const fingerprint = deviceFingerprint(sighting.userAgent, place?.countryCode ?? null);
    if ((await this.remember(project.id, user.id, fingerprint, sighting.at)) !== 'new') return;
    const to = user.primary_email;
    if (!to || !user.primary_email_verified) return;
    if (!(await this.preferences.isEnabled(project.id, user.id, signInAlertsCategoryId))) {
      await this.email.recordSkipped(project.id, {
        to,
        kind: 'new_device_sign_in',
        subject: `New sign-in to your ${project.display_name} account`,
        reason: 'The user turned Sign-in alerts off.',
      });
      return;
    }
    // Only what the reader should know: never a code, a token or a link that signs in.
    const variables = {
      device: describeDevice(deviceOfUserAgent(sighting.userAgent)),
      place: describePlace(place),
      time: describeTime(sighting.at),
    };
    await this.email.send(project, {
      to,
      kind: 'new_device_sign_in',
      variables,
      user: { id: user.id, display_name: user.display_name },
      language: user.language,
    });
  }

  /** Records the device; concurrent sign-ins of one user take turns, so a new device is announced once. */
  remember(projectId: ProjectId, userId: string, fingerprint: string, at: Date): Promise<DeviceSighting> {
    return inTransaction(this.db, async (trx) => {
      await lockKnownDevicesOfUser(trx, projectId, userId);
      const { count, known } = await findKnownDevices(trx, projectId, userId, fingerprint);
      if (known) {
        await touchKnownDevice(trx, projectId, userId, fingerprint, at);
        return 'known';
      }
      await insertKnownDevice(trx, projectId, { user_id: userId, fingerprint, at });
      if (count >= maxKnownDevicesPerUser) await deleteLeastRecentKnownDevices(trx, projectId, userId, maxKnownDevicesPerUser);
      return count === 0 ? 'first' : 'new';
    });
  }
}
