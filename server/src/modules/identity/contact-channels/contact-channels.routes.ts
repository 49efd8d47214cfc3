import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { ContactChannelService } from './contact-channel.service.ts';
import { authOf, requireLiveSession } from '../../../request-context/auth-of.ts';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import { resolveUserId } from '../../../request-context/resolve-user-id.ts';
import { SchemaError } from '@gatehouse/protocol/errors';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import { toContactChannel } from './contact-channel-view.ts';

/** Only server and admin access may mark a channel verified without a code. */
function assertMayVerify(auth: RequestAuth, body: { is_verified?: boolean }): void {
  if (body.is_verified !== undefined && auth.accessType === 'client') {
    const message = 'body/is_verified may only be set with server or admin access';
    throw new SchemaError({ message }, message);
  }
}

export function contactChannelHandlers(services: { contactChannels: ContactChannelService }) {
  const channels = services.contactChannels;
  return {
    listContactChannels: async (request) => {
      const auth = authOf(request);
      const rows = await channels.list(auth.project.id, resolveUserId(auth, request.query.user_id));
      return { items: rows.map(toContactChannel), is_paginated: false as const };
    },

    createContactChannel: async (request, reply) => {
      const auth = authOf(request);
      assertMayVerify(auth, request.body);
      if (request.body.used_for_auth) await requireLiveSession(request);
      const row = await channels.create(auth.project.id, resolveUserId(auth, request.body.user_id), request.body);
      reply.status(201);
      return toContactChannel(row);
    },

    getContactChannel: async (request) => {
      const auth = authOf(request);
      return toContactChannel(
        await channels.get(auth.project.id, resolveUserId(auth, request.params.user_id), request.params.contact_channel_id),
      );
    },

    updateContactChannel: async (request) => {
      const auth = authOf(request);
      assertMayVerify(auth, request.body);
      if (request.body.used_for_auth || request.body.value !== undefined) await requireLiveSession(request);
      const userId = resolveUserId(auth, request.params.user_id);
      return toContactChannel(await channels.update(auth.project.id, userId, request.params.contact_channel_id, request.body));
    },

    deleteContactChannel: async (request) => {
      const auth = authOf(request);
      await channels.delete(auth.project.id, resolveUserId(auth, request.params.user_id), request.params.contact_channel_id);
      return { success: true } as const;
    },

    sendContactChannelVerificationCode: async (request) => {
      const auth = authOf(request);
      const userId = resolveUserId(auth, request.params.user_id);
      await channels.sendVerification(auth.project, userId, request.params.contact_channel_id, request.body.callback_url);
      return { success: true } as const;
    },

    sendPrimaryEmailVerificationCode: async (request) => {
      const auth = authOf(request);
      await channels.sendPrimaryVerification(auth.project, auth.user?.record as UserRecord, request.body.email, request.body.callback_url);
      return { success: true } as const;
    },

    verifyContactChannel: async (request) => {
      await channels.verify(authOf(request).project.id, request.body.code);
      return { success: true } as const;
    },

    checkContactChannelVerificationCode: async (request) => {
      await channels.verify(authOf(request).project.id, request.body.code, { peek: true });
      return { is_code_valid: true } as const;
    },
  } satisfies Partial<OperationHandlers>;
}
