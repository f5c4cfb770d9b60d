import type { Config } from '../../config';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import type { Limit } from '../attempts/enforce-limits';

type LimitConfig = Pick<
  Config,
  | 'MEMBER_ADDS_PER_ACCOUNT_PER_HOUR'
  | 'MEMBER_ADDS_PER_ACCOUNT_PER_DAY'
  | 'INVITATIONS_PER_PHONE_PER_DAY'
  | 'JOINS_PER_INVITE_LINK_PER_HOUR'
  | 'JOINS_PER_INVITE_LINK_PER_DAY'
>;

/** Members an account adds itself per hour and per day (joins through its links have their own, below). */
export function memberAddLimits(config: LimitConfig, adderId: number): Limit[] {
  const message = (period: string) => (wait: string) =>
    `You have added the most members allowed in one ${period}. Please try again ${wait}.`;
  return [
    { key: `member-add:hour:${adderId}`, max: config.MEMBER_ADDS_PER_ACCOUNT_PER_HOUR, windowMs: HOUR_MS, message: message('hour') },
    { key: `member-add:day:${adderId}`, max: config.MEMBER_ADDS_PER_ACCOUNT_PER_DAY, windowMs: DAY_MS, message: message('day') },
  ];
}

/**
 * Joins through one invite link per hour and per day (decision 0053): a leaked link texts at most
 * this many strangers before its owner can stop it, and never uses up the owner's own adds.
 */
export function inviteLinkLimits(config: LimitConfig, inviteId: number): Limit[] {
  const message = (period: string) => (wait: string) =>
    `This invite link has been used too often this ${period}. Please try again ${wait}, or ask the Loop's creator to add you.`;
  return [
    { key: `invite-join:hour:${inviteId}`, max: config.JOINS_PER_INVITE_LINK_PER_HOUR, windowMs: HOUR_MS, message: message('hour') },
    { key: `invite-join:day:${inviteId}`, max: config.JOINS_PER_INVITE_LINK_PER_DAY, windowMs: DAY_MS, message: message('day') },
  ];
}

/** One invitation per phone per Loop per day, and a few per phone per day from all Loops together. */
export function invitationLimits(config: LimitConfig, phoneNumber: string, loopId: number): Limit[] {
  return [
    {
      key: `invitation:loop:${loopId}:${phoneNumber}`,
      max: 1,
      windowMs: DAY_MS,
      message: (wait) => `This number was sent an invitation to this Loop less than a day ago. You can invite it again ${wait}.`,
    },
    {
      key: `invitation:phone:${phoneNumber}`,
      max: config.INVITATIONS_PER_PHONE_PER_DAY,
      windowMs: DAY_MS,
      message: (wait) => `This number has had as many Loop invitations today as we send to one phone. Please try again ${wait}.`,
    },
  ];
}
