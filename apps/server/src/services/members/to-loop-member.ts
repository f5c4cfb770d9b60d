import type { EmailStatus, NewsletterDelivery } from '@loop/shared/constants';
import type { LoopMember } from '@loop/shared/loops';
import type { members, users } from '../../db/schema';

/** The person's name, email and messaging preference, as one side or the other has them. */
export interface PersonDetails {
  firstName: string;
  lastName: string;
  email: string | null;
  messagingPreference: LoopMember['user']['messagingPreference'];
}

/** A member row with its person, as the services read it. */
export interface MemberWithPerson {
  id: number;
  userId: number;
  context: string | null;
  phoneNumber: string;
  status: 'pending' | 'active' | 'declined';
  /** The person has an account of their own (a password): their name and email are theirs to share. */
  hasAccount: boolean;
  /** A co-organizer (decision 0059). */
  organizer: boolean;
  /** The person's own details (the users row), and their e-mail standing (decision 0047) where known. */
  own: PersonDetails & { newsletterDelivery?: NewsletterDelivery; emailStatus?: EmailStatus };
  /** What whoever added them typed (members' columns); null on rows made before they were kept. */
  typed: {
    firstName: string | null;
    lastName: string | null;
    email: string | null;
    messagingPreference: PersonDetails['messagingPreference'] | null;
  };
}

/** The member's state (pending, active...) comes from memberState, and their zone from memberZone, beside this. */
export type LoopMemberPerson = Omit<
  LoopMember,
  | 'state'
  | 'invitedAt'
  | 'resendAt'
  | 'lastError'
  | 'deliveryNote'
  | 'timeZone'
  | 'timeZoneSource'
  | 'timeZoneCountry'
  | 'ownerTimeZone'
  | 'scheduledFor'
>;

/**
 * Whose details a Loop shows for a member (decision 0031): the person's own once they said yes
 * with an account of their own, and to staff; until then, and for a person without an account
 * (who never chose a name), what the adder typed. So adding a phone reveals nothing of whoever
 * holds it, and one owner's label never shows in another owner's Loop.
 */
export function showsOwnDetails(
  member: { status: MemberWithPerson['status']; hasAccount: boolean; typed: { firstName: string | null } },
  staffView = false,
): boolean {
  return staffView || (member.status === 'active' && member.hasAccount) || member.typed.firstName === null;
}

/** The details a Loop shows for a member: see showsOwnDetails. */
export function shownDetails(member: Pick<MemberWithPerson, 'status' | 'hasAccount' | 'typed' | 'own'>, staffView = false): PersonDetails {
  const { typed, own } = member;
  if (showsOwnDetails(member, staffView)) {
    return { firstName: own.firstName, lastName: own.lastName, email: own.email, messagingPreference: own.messagingPreference };
  }
  return {
    firstName: typed.firstName ?? own.firstName,
    lastName: typed.lastName ?? own.lastName,
    email: typed.email,
    messagingPreference: typed.messagingPreference ?? own.messagingPreference,
  };
}

/** An update's author as the Loop shows its members; as they are when they have left it (no membership). */
export function authorName(
  own: { firstName: string; lastName: string; hasAccount: boolean },
  membership: { status: MemberWithPerson['status']; firstName: string | null; lastName: string | null } | null,
  staffView = false,
): { firstName: string; lastName: string } {
  if (!membership || showsOwnDetails({ status: membership.status, hasAccount: own.hasAccount, typed: membership }, staffView)) {
    return { firstName: own.firstName, lastName: own.lastName };
  }
  return { firstName: membership.firstName ?? own.firstName, lastName: membership.lastName ?? own.lastName };
}

/**
 * The API's member without its state: who they are, as the Members tab shows them. Until they
 * said yes the answer is the same whoever holds the phone: the typed details, no person id, and
 * editable; after, the owner may change the name and preference only of a person without an
 * account (the Loop's label for them), never an account holder's.
 */
export function toLoopMember(member: MemberWithPerson, creatorId: number, staffView = false): LoopMemberPerson {
  const isCreator = member.userId === creatorId;
  const shown = shownDetails(member, staffView);
  const { own } = member;
  // E-mail (decision 0047): the person's own choice and their address's standing, shown where their
  // own details are (or they have no account: the owner's label is all there is); a typed address
  // that is not theirs is only "unconfirmed", so adding one reveals nothing of the phone's holder.
  const ownShown = showsOwnDetails(member, staffView) || !member.hasAccount;
  const sameAddress = shown.email !== null && own.email !== null && shown.email.toLowerCase() === own.email.toLowerCase();
  const email = {
    newsletterDelivery: ownShown ? (own.newsletterDelivery ?? 'text') : 'text',
    emailStatus: sameAddress && ownShown ? (own.emailStatus ?? 'unconfirmed') : shown.email ? 'unconfirmed' : 'none',
  } as const;
  return {
    id: member.id,
    userId: staffView || member.status === 'active' ? member.userId : null,
    context: member.context,
    isCreator,
    organizer: member.organizer && member.status === 'active',
    detailsEditable: !isCreator && (member.status !== 'active' || !member.hasAccount),
    user: { ...shown, phoneNumber: member.phoneNumber, ...email },
  };
}

/** A member row and its person's row, as toLoopMember takes them. */
export function memberWithPerson(member: typeof members.$inferSelect, user: typeof users.$inferSelect): MemberWithPerson {
  return {
    id: member.id,
    userId: user.id,
    context: member.context,
    phoneNumber: user.phoneNumber,
    status: member.status,
    hasAccount: user.passwordHash !== null,
    organizer: member.organizer,
    own: {
      ...user,
      emailStatus: !user.email ? 'none' : user.emailConfirmedAddress === user.email.toLowerCase() ? 'confirmed' : 'unconfirmed',
    },
    typed: member,
  };
}

/**
 * A member as another plain member of the Loop sees them (decision 0054): their name, context,
 * state and zone, but no phone number, e-mail address or anything of how texts to the phone fare.
 */
export function namesOnly(member: LoopMember): LoopMember {
  return {
    ...member,
    user: { ...member.user, phoneNumber: null, email: null, emailStatus: 'none' },
    lastError: null,
    deliveryNote: null,
  };
}
