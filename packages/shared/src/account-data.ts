import { z } from 'zod';
import { LIMITS } from './constants';

/**
 * "Download my data" and "Delete my account" on the Profile page (decision 0045): the API's
 * bodies and answers, shared by the server and the web app.
 */

/** How long a finished export is offered before its zip is deleted. */
export const EXPORT_OFFERED_HOURS = 24;

/** GET /api/user/export: the latest export, if any is still offered. */
export interface DataExport {
  status: 'none' | 'building' | 'ready' | 'failed';
  requestedAt: string | null;
  readyAt: string | null;
  /** When the zip is deleted (ready only). */
  expiresAt: string | null;
  bytes: number | null;
  /** Where the signed-in person downloads it (ready only): an unguessable path that works only with their session. */
  downloadUrl: string | null;
}

const id = z.number({ error: 'Must be a number' }).int('Must be a whole number').positive('Must be a positive number');

export const deleteAccountSchema = z.object({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(LIMITS.passwordMax),
  /** Loops the person owns, each handed to another active member with an account. */
  handOver: z
    .array(z.object({ loopId: id, toUserId: id }))
    .max(1000)
    .default([]),
  /** Loops the person owns that are deleted with the account: each owned Loop is in one of the two lists. */
  deleteLoops: z.array(id).max(1000).default([]),
});
export type DeleteAccountInput = z.input<typeof deleteAccountSchema>;

/** A Loop the person owns, as the delete dialog lists it (GET /api/user/owned-loops). */
export interface OwnedLoop {
  id: number;
  name: string;
  memberCount: number;
  /** Active members with an account, who could run it instead. */
  candidates: { userId: number; name: string }[];
}
