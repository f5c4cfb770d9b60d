import type { LoopMember } from '@loop/shared/loops';

/** A member row with its person, as the services read it. */
export interface MemberWithPerson {
  id: number;
  userId: number;
  context: string | null;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  email: string | null;
  messagingPreference: LoopMember['user']['messagingPreference'];
  /** No account of their own and in no other Loop: the owner may change their name and preference. */
  detailsEditable: boolean;
}

/** The member's state (pending, active...) comes from memberState, and their zone from memberZone, beside this. */
export type LoopMemberPerson = Omit<
  LoopMember,
  'state' | 'invitedAt' | 'resendAt' | 'lastError' | 'deliveryNote' | 'timeZone' | 'timeZoneSource' | 'ownerTimeZone' | 'scheduledFor'
>;

/** The API's member without its state: who they are, as the Members tab shows them. */
export function toLoopMember(member: MemberWithPerson, creatorId: number): LoopMemberPerson {
  return {
    id: member.id,
    userId: member.userId,
    context: member.context,
    isCreator: member.userId === creatorId,
    detailsEditable: member.detailsEditable && member.userId !== creatorId,
    user: {
      firstName: member.firstName,
      lastName: member.lastName,
      phoneNumber: member.phoneNumber,
      email: member.email,
      messagingPreference: member.messagingPreference,
    },
  };
}
