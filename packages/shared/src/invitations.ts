import { z } from 'zod';
import { idParamSchema } from './loops';

/**
 * An invitation waiting for the signed-in person's answer (decision 0035): a pending membership of
 * their proven phone, whose invitation text went out less than 7 days ago. `id` is the membership's.
 */
export const invitationSchema = z.object({
  id: z.number().int(),
  loop: z.object({ id: z.number().int(), name: z.string() }),
  /**
   * Who added them (the owner, staff, or the invite link's creator); null when that account is gone.
   * `phoneEnd`: the last four digits of their phone when a texted code proved it, what tells two
   * lookalike invitations apart (decision 0053); null when not proven.
   */
  invitedBy: z.object({ firstName: z.string(), lastName: z.string(), phoneEnd: z.string().nullable() }).nullable(),
  invitedAt: z.string(),
  /** After this, the invitation can no longer be accepted (the owner may send it again). */
  expiresAt: z.string(),
});
export type Invitation = z.output<typeof invitationSchema>;

/** GET /api/invitations. */
export const invitationListSchema = z.array(invitationSchema);

export const invitationParamsSchema = z.object({ membershipId: idParamSchema });

/** POST /api/invitations/{membershipId}/accept and /decline: the membership as it now stands. */
export const invitationAnswerSchema = z.object({
  id: z.number().int(),
  loop: z.object({ id: z.number().int(), name: z.string() }),
  status: z.enum(['active', 'declined']),
});
export type InvitationAnswer = z.output<typeof invitationAnswerSchema>;
