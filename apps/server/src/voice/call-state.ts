import { z } from 'zod';
import { hashToken, sameHash } from '../lib/tokens';

/** Where a call is: carried in the TwiML's action URLs, so any process can answer the next step. */
export const callStateSchema = z.object({
  /** The caller proved they hold the phone (attestation A or the PIN). */
  verified: z.boolean(),
  /** Wrong PINs on this call. */
  tries: z.number().int().min(0).max(10),
  /** The Loop chosen, once there is one. */
  loopId: z.number().int().positive().optional(),
  /** Issues back from the latest (0: the latest). */
  back: z.number().int().min(0).max(1000),
  /** Which section of that issue. */
  section: z.number().int().min(0).max(10_000),
});
export type CallState = z.infer<typeof callStateSchema>;

export const START_STATE: CallState = { verified: false, tries: 0, back: 0, section: 0 };

function tag(secret: string, callSid: string, state: string): string {
  return hashToken(`call-state:${callSid}:${state}`, secret);
}

/**
 * The query string of a step's URL: the state and a tag (HMAC under the server's secret, bound to
 * this CallSid), so a URL copied into another call, or edited, is refused even though Twilio's own
 * signature already covers it (decision 0067).
 */
export function stateQuery(secret: string, callSid: string, state: CallState): string {
  const encoded = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `s=${encoded}&k=${tag(secret, callSid, encoded)}`;
}

/** The state of a step's URL, or null when it is missing, edited or from another call. */
export function readState(secret: string, callSid: string, query: { s?: unknown; k?: unknown }): CallState | null {
  if (typeof query.s !== 'string' || typeof query.k !== 'string' || callSid === '') return null;
  if (!sameHash(tag(secret, callSid, query.s), query.k)) return null;
  try {
    const parsed = callStateSchema.safeParse(JSON.parse(Buffer.from(query.s, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
